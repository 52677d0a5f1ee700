import { Anchor, Stack } from '@mantine/core';
import { isRouteErrorResponse, Link, useNavigate, useRouteError } from 'react-router';
import { ErrorState } from '@/components/feedback/error-state';
import { ApiError } from '@/lib/errors/api-error';
import { paths } from '@/app/paths';
import { NotFoundPage } from './not-found-page';

/** What a route shows when its loader or render fails; the app shell around it stays usable. */
export function RouteErrorPage() {
  const error = useRouteError();
  const navigate = useNavigate();

  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const shown = isRouteErrorResponse(error)
    ? new ApiError(error.status, { code: `HTTP_${String(error.status)}`, cause: error.statusText })
    : error;

  return (
    <Stack gap="sm" align="flex-start">
      <ErrorState
        error={shown}
        onRetry={() => {
          // Re-running the current location re-runs its loaders.
          void navigate('.', { replace: true });
        }}
      />
      <Anchor component={Link} to={paths.overview.to()}>
        Go to the participant overview
      </Anchor>
    </Stack>
  );
}
