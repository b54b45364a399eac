// A slice without immer, for the state the first page holds (auth, the basket, the applied discount, the
// header's toggles, home's data): each case reducer returns the next state itself instead of changing a
// draft, so the first page's chunk carries no immer (see lib/toolkit.ts). It has what the app uses of a
// createSlice slice (name, reducerPath, reducer, actions with createSlice's types) and its action types are
// `name/key`, as createSlice's are, so other slices' extra reducers and the tests cannot tell them apart.
// Every other slice uses createSlice.
import type { CaseReducerActions, PayloadAction, Reducer, SliceCaseReducers } from '@reduxjs/toolkit';
import { createAction } from './toolkit';

/** A case reducer that returns the next state (the state it is given must not be changed). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a case reducer may take any payload; each slice types its own actions
export type PlainCaseReducer<State> = (state: State, action: PayloadAction<any>) => State;

export interface PlainSlice<State, Reducers, Name extends string> {
  name: Name;
  reducerPath: Name;
  reducer: Reducer<State>;
  actions: CaseReducerActions<Reducers & SliceCaseReducers<State>, Name>;
  getInitialState: () => State;
}

export function createPlainSlice<State, Name extends string, Reducers extends Record<string, PlainCaseReducer<State>>>(
  name: Name,
  initialState: State,
  reducers: Reducers,
): PlainSlice<State, Reducers, Name> {
  const byType = new Map<string, PlainCaseReducer<State>>();
  const actions: Record<string, unknown> = {};
  for (const [key, reduce] of Object.entries(reducers)) {
    const creator = createAction(`${name}/${key}`);
    byType.set(creator.type, reduce);
    actions[key] = creator;
  }
  const reducer: Reducer<State> = (state = initialState, action) => {
    const reduce = byType.get(action.type);
    return reduce ? reduce(state, action as PayloadAction) : state;
  };
  return {
    name,
    reducerPath: name,
    reducer,
    actions: actions as PlainSlice<State, Reducers, Name>['actions'],
    getInitialState: () => initialState,
  };
}
