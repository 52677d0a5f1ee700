import { appendAuditFilter, parseAuditFilter, type AuditFilter } from '@/lib/activity/audit-log';
import { appendPageTrail, parsePageTrail, type PageTrail } from '@/lib/navigation/page-trail';

/**
 * Where the Activity page's shared log is, as URL search params: its filters (lib/activity
 * audit-log.ts) and the page trail (`?size=…&page=3&token=A&token=B`, lib/navigation), so a
 * reload, back/forward and a link sent to a colleague land on the same entries.
 */
export type AuditView = PageTrail & AuditFilter;

export const AUDIT_PAGE_SIZES = [10, 25, 50, 100, 250, 500] as const;
const pageSizes = { sizes: AUDIT_PAGE_SIZES, defaultSize: 100 };

export function parseAuditView(params: URLSearchParams): AuditView {
  return { ...parsePageTrail(params, pageSizes), ...parseAuditFilter(params) };
}

/** Defaults are left out, so the newest page of the whole log is plain `/activity`. */
export function toAuditSearchParams(view: AuditView): URLSearchParams {
  return appendPageTrail(appendAuditFilter(new URLSearchParams(), view), view, pageSizes);
}

/** A changed filter starts again from the newest entries: the page tokens were the old filter's. */
export function withAuditFilter(view: AuditView, change: Partial<AuditFilter>): AuditView {
  return { ...view, ...change, pageTokens: [] };
}
