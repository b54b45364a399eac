// Sending images (spec section 7): several files as `image` fields of a multipart form to
// POST /api/new/?mode=N&id=ID, which stores them (checking their bytes) and appends their names to the item
// the mode names; a single file as the one `image` field of POST /api/uploading/, which answers its name.
// Removing pictures from a drink or a category follows the spec's flow: POST /api/delete/array/ with the
// names, then the item is updated by its mode (14 a drink, 12 a category) with the pictures it keeps.
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
  // The document types the mode as text (the query string carries it as text either way).
  return api.post('/new/', form, { query: { mode: String(mode), id } });
}

/** One file to POST /api/uploading/: answers the stored name. */
export function uploadOne(api: ApiClient, file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file, file.name);
  return api.post('/uploading/', form);
}

/** The spec's labels for image failures: a picture whose address does not load, and a failed image request. */
export const IMAGE_URL_ERROR = 'error url image';
export const IMAGE_REQUEST_ERROR = 'error';

/** Where an item is updated, by the spec's mode: only drinks and categories have pictures to remove. */
const UPDATE_BY_MODE: Partial<Record<number, (api: ApiClient, _id: string, image: string[]) => Promise<unknown>>> = {
  [UPLOAD_MODE.product]: (api, _id, image) => api.put('/product/update/{_id}', { image }, { params: { _id } }),
  [UPLOAD_MODE.category]: (api, _id, image) => api.put('/category/update/{_id}', { image }, { params: { _id } }),
};

/**
 * Deletes `names` from storage (POST /api/delete/array/), then saves the item `id` of `mode` with `keep`
 * as its pictures (PUT by mode). Answers the kept list; rejects with the failing call's message.
 */
export const removePictures =
  (mode: number, id: string, names: readonly string[], keep: readonly string[]): ThunkAction<Promise<string[]>, unknown, ThunkExtra, UnknownAction> =>
  async (_dispatch, _getState, { api }) => {
    const update = UPDATE_BY_MODE[mode];
    if (!update) throw new Error(`Mode ${mode} has no pictures to remove`);
    await api.post('/delete/array/', { images: [...names] });
    await update(api, id, [...keep]);
    return [...keep];
  };

/** A single file to POST /api/uploading/, as a thunk: answers the stored name. */
export const uploadSingle =
  (file: File): ThunkAction<Promise<string>, unknown, ThunkExtra, UnknownAction> =>
  (_dispatch, _getState, { api }) =>
    uploadOne(api, file);

/**
 * New pictures for a form, as a thunk: stored in the gallery (POST /api/new/?mode=22, no item needed) and
 * answered as their names, so the form adds them to its list and a new item needs no "save first".
 */
export const uploadForPicking =
  (files: readonly File[]): ThunkAction<Promise<string[]>, unknown, ThunkExtra, UnknownAction> =>
  (_dispatch, _getState, { api }) =>
    uploadImages(api, files, UPLOAD_MODE.gallery);
