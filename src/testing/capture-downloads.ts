import { vi } from 'vitest';

/**
 * Catches what the page offers as downloads (`components/data-table/download-file.ts`): each
 * file's content and name, in the order offered. jsdom cannot navigate to a download; the click
 * is all a browser needs, so the click does nothing here.
 */
export function captureDownloads() {
  const saved: Blob[] = [];
  const names: string[] = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    saved.push(blob as Blob);
    return `blob:download-${String(saved.length)}`;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names.push(this.download);
  });
  return { saved, names };
}
