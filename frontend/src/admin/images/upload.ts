// Sending images: the files as `image` fields of a multipart form to POST /api/new/?mode=N&id=ID, which
// stores them (checking their bytes) and appends their names to the item the mode names.
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import type { ApiClient } from '../../lib/api';
import type { ThunkExtra } from '../../lib/thunk';

/** The spec's modes: where uploaded names are appended. */
export const UPLOAD_MODE = { siteInfo: 8, link: 10, category: 12, product: 14, gallery: 22 } as const;
export const ACCEPTED_TYPES = 'image/png,image/jpeg,image/webp,image/gif';
/** Files per request, as the server takes them. */
export const MAX_FILES = 4;

/** Answers the stored names; rejects with the server's message (an ApiError). */
export function uploadImages(api: ApiClient, files: readonly File[], mode: number, id?: string): Promise<string[]> {
  const form = new FormData();
  for (const file of files) form.append('image', file, file.name);
  return api.post<string[]>('/new/', form, { query: { mode, id } });
}

/** The same as a thunk, for a screen that holds no API client: uploads to an item and answers the names. */
export const uploadToItem =
  (mode: number, id: string, files: readonly File[]): ThunkAction<Promise<string[]>, unknown, ThunkExtra, UnknownAction> =>
  (_dispatch, _getState, { api }) =>
    uploadImages(api, files, mode, id);
