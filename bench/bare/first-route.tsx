/**
 * The first-route limit: a bare Vite + React + Mantine app with the console's router and query
 * client, showing one route that reads one resource into a Mantine table inside an app shell.
 * Whatever the console's first route weighs beyond this is the console's own.
 */
import '@mantine/core/styles.css';
import { AppShell, MantineProvider, Table, Text, Title } from '@mantine/core';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Link, Outlet, RouterProvider } from 'react-router';

type User = { id: string; primaryParty?: string };

function UsersRoute() {
  const users = useQuery({
    queryKey: ['users'],
    queryFn: async ({ signal }) => {
      const response = await fetch('/v2/users?pageSize=50', { signal });
      return ((await response.json()) as { users: User[] }).users;
    },
  });
  if (!users.data) return <Text>Loading…</Text>;
  return (
    <>
      <Text>Bare app ready</Text>
      <Table>
        <Table.Tbody>
          {users.data.map((user) => (
            <Table.Tr key={user.id}>
              <Table.Td>{user.id}</Table.Td>
              <Table.Td>{user.primaryParty ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}

function Layout() {
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm' }} padding="md">
      <AppShell.Header>
        <Title order={1}>Bare</Title>
      </AppShell.Header>
      <AppShell.Navbar>
        <Link to="/">Users</Link>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

const router = createBrowserRouter([
  {
    path: '/',
    element: <Layout />,
    children: [
      { path: '*', element: <UsersRoute /> },
      { index: true, element: <UsersRoute /> },
    ],
  },
]);
const queryClient = new QueryClient();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <MantineProvider>
          <RouterProvider router={router} />
        </MantineProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
