export type DownloadFileOptions = {
  fileName: string;
  content: string;
  /** e.g. `text/csv;charset=utf-8` */
  mimeType: string;
};

/** Saves text as a file through the browser's download, without a server round trip. */
export function downloadFile({ fileName, content, mimeType }: DownloadFileOptions): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // The download has started by now; the URL would otherwise hold the content until unload.
    setTimeout(() => {
      URL.revokeObjectURL(url);
    }, 0);
  }
}
