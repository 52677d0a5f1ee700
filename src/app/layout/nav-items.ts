import { paths } from '@/app/paths';

export type NavItem = { label: string; to: string };

export const navItems: readonly NavItem[] = [{ label: 'Overview', to: paths.overview.to() }];
