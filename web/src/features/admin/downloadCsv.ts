import type { AdminOrderListQuery } from '@shop/contracts';
import { AxiosError } from 'axios';
import { api, errorMessage } from '@/api/client';

/** A blob's text (FileReader where Blob#text is missing, as in older engines). */
function textOf(blob: Blob): Promise<string> {
  if (typeof blob.text === 'function') return blob.text();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

/** The server's sentence for a failed export: its JSON error arrives as a blob here, so it is read first. */
async function failureMessage(error: unknown): Promise<string> {
  const data = error instanceof AxiosError ? error.response?.data : undefined;
  if (data instanceof Blob) {
    try {
      const body = JSON.parse(await textOf(data)) as { message?: unknown };
      if (typeof body.message === 'string' && body.message.trim()) return body.message;
    } catch {
      // not JSON: the transport's own message below
    }
  }
  return errorMessage(error);
}

/** The file name the server gives in Content-Disposition, or `fallback`. */
export function fileNameOf(disposition: string | undefined, fallback: string): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;
}

/**
 * Downloads the CSV of the orders a filter selects. The export needs the admin's bearer token, which a plain link
 * cannot send: it is fetched through the API client (token and all) as a blob, then saved through a temporary
 * object URL. Resolves with the file's name; rejects with an Error carrying the server's message.
 */
export async function downloadOrdersCsv(params: AdminOrderListQuery): Promise<string> {
  let res;
  try {
    res = await api.get<Blob>('/api/admin/orders/export.csv', {
      params,
      responseType: 'blob',
      headers: { Accept: 'text/csv' },
      timeout: 0, // a large export streams for as long as it takes
    });
  } catch (error) {
    throw new Error(await failureMessage(error));
  }
  const name = fileNameOf(res.headers['content-disposition'] as string | undefined, 'orders.csv');
  const url = URL.createObjectURL(res.data);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.rel = 'noopener';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // after the click has handed the blob to the browser's download
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
  return name;
}
