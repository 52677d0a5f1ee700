/** `?stdlib=shown`: the packages list shows the standard library too. Hidden by default. */
export const SHOW_STANDARD_LIBRARY_PARAM = 'stdlib';
/** `?uploaded=<main package id>`: the DAR just uploaded, listed first and marked. */
export const UPLOADED_PARAM = 'uploaded';

/** The packages list's search with the DAR just uploaded first, for the upload page's link. */
export function packagesListSearch({ uploaded }: { uploaded: string }): string {
  return `?${new URLSearchParams({ [UPLOADED_PARAM]: uploaded }).toString()}`;
}
