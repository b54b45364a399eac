// Admin images (/new/uk/show): every uploaded image's name (GET /api/uploading/sh/, newest first), uploads
// to the gallery (one file: POST /api/uploading/, as the spec's single upload; several: POST
// /api/new/?mode=22) and deletes. The forms' ImagePicker reads the same list and uploads to the gallery too;
// all go through upload.ts.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';
import { createWrite } from '../../lib/writes';
import { UPLOAD_MODE, uploadImages, uploadOne } from './upload';

export { ACCEPTED_TYPES, MAX_FILES } from './upload';


export interface ImagesState extends Loadable {
  names: string[];
  busy: boolean;
  actionError: string | null;
  notice: string | null;
}

export const initialImagesState: ImagesState = { ...initialLoadable, names: [], busy: false, actionError: null, notice: null };

const imagesSlice = createSlice({
  name: 'images',
  initialState: initialImagesState,
  reducers: {
    imagesRequested(state, _action: PayloadAction<void>) {
      state.status = 'loading';
      state.error = null;
      state.reload = false;
    },
    imagesReceived(state, action: PayloadAction<Received<void, string[]>>) {
      state.status = 'loaded';
      state.names = action.payload.result;
    },
    imagesFailed(state, action: PayloadAction<Failed<void>>) {
      state.status = 'failed';
      state.error = action.payload.message;
    },
    imagesReloadRequested(state) {
      state.reload = true;
    },
    imageActionStarted(state) {
      state.busy = true;
      state.actionError = null;
      state.notice = null;
    },
    imageActionSucceeded(state, action: PayloadAction<string>) {
      state.busy = false;
      state.notice = action.payload;
      state.reload = true;
    },
    imageActionFailed(state, action: PayloadAction<string>) {
      state.busy = false;
      state.actionError = action.payload;
    },
  },
  selectors: {
    selectImages: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof imagesSlice> {}
}

const injected = imagesSlice.injectInto(rootReducer);

export const {
  imagesRequested,
  imagesReceived,
  imagesFailed,
  imagesReloadRequested,
  imageActionStarted,
  imageActionSucceeded,
  imageActionFailed,
} = imagesSlice.actions;
export const { selectImages } = injected.selectors;

export const fetchImages = createLoader(
  { requested: imagesRequested, received: imagesReceived, failed: imagesFailed },
  (api) => api.get('/uploading/sh/'),
);

const imageAction = createWrite({ started: imageActionStarted, succeeded: imageActionSucceeded, failed: imageActionFailed });

export const uploadToGallery = (files: readonly File[]) =>
  imageAction(async (api) => {
    const [only] = files;
    const names = files.length === 1 && only ? [await uploadOne(api, only)] : await uploadImages(api, files, UPLOAD_MODE.gallery);
    return names.length === 1 ? 'The image is uploaded.' : `${names.length} images are uploaded.`;
  });

export const deleteImage = (name: string) =>
  imageAction(async (api) => {
    await api.delete('/delete/image/{name}', { params: { name } });
    return `${name} is deleted.`;
  });

export default imagesSlice;
