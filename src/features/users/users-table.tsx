import { useMemo, type ReactNode } from 'react';
import { PlainLink } from '@/components/plain-link';
import type { User } from '@/api/users';
import {
  DataTable,
  type DataTableColumn,
  type DataTableSort,
} from '@/components/data-table/data-table';
import classes from '@/components/data-table/data-table-cells.module.css';
import { Identifier } from '@/components/identifier';
import { IsolatedText } from '@/components/isolated-text';
import { revealControls } from '@/lib/text/display-text';
import {
  annotationsCount,
  identityProviderLabel,
  userStatusLabel,
  type UsersSortKey,
} from './users-filter-sort';

export type UsersTableProps = {
  users: readonly User[];
  /** The link to a user's page. */
  userHref: (userId: string, identityProviderId: string) => string;
  caption?: ReactNode;
  sort?: DataTableSort<UsersSortKey>;
  /** Sorting is offered only when given (the whole set is loaded). */
  onSortChange?: (sort: DataTableSort<UsersSortKey>) => void;
  isBusy?: boolean;
};

// Stable, so the table's rows need not render again when only their busy state changes.
const userRowKey = (user: User) => `${user.identityProviderId ?? ''}/${user.id}`;

/** Users with id (a link), primary party, IdP, status and annotations count. */
export function UsersTable({
  users,
  userHref,
  caption,
  sort,
  onSortChange,
  isBusy,
}: UsersTableProps) {
  const columns = useMemo(
    (): DataTableColumn<User, UsersSortKey>[] => [
      {
        key: 'id',
        header: 'User id',
        width: '30%',
        isSortable: true,
        cell: (user) => (
          <PlainLink
            className={classes.link}
            to={userHref(user.id, user.identityProviderId ?? '')}
            title={revealControls(user.id)}
          >
            <IsolatedText isIdentifier>{user.id}</IsolatedText>
          </PlainLink>
        ),
      },
      {
        key: 'primaryParty',
        header: 'Primary party',
        width: '30%',
        isSortable: true,
        cell: (user) =>
          user.primaryParty ? (
            <Identifier
              value={user.primaryParty}
              // A name per row: "Copy primary party" on every row would not tell them apart.
              label={`primary party of ${user.id}`}
              kind="party"
            />
          ) : (
            <span className={classes.dimmed}>none</span>
          ),
      },
      {
        key: 'identityProviderId',
        header: 'IdP',
        width: '16%',
        isSortable: true,
        cell: (user) => (
          <span
            className={classes.text}
            title={revealControls(identityProviderLabel(user.identityProviderId))}
          >
            <IsolatedText isIdentifier>
              {identityProviderLabel(user.identityProviderId)}
            </IsolatedText>
          </span>
        ),
      },
      {
        key: 'status',
        header: 'Status',
        width: '13%',
        isSortable: true,
        cell: (user) => (
          <span className={classes.pill} data-muted={user.isDeactivated ? true : undefined}>
            {userStatusLabel(user)}
          </span>
        ),
      },
      {
        key: 'annotations',
        header: 'Annotations',
        width: '11%',
        isSortable: true,
        cell: (user) => annotationsCount(user),
      },
    ],
    [userHref],
  );

  return (
    <DataTable
      label="Users"
      caption={caption}
      columns={columns}
      rows={users}
      rowKey={userRowKey}
      isKeyedByPlace
      {...(sort ? { sort } : {})}
      {...(onSortChange ? { onSortChange } : {})}
      isBusy={isBusy ?? false}
    />
  );
}
