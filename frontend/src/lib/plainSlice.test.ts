// The first page's plain slices behave as createSlice's do where the app can tell.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import { createPlainSlice } from './plainSlice';

interface Counter {
  count: number;
  label: string;
}
const initial: Counter = { count: 0, label: '' };
const counter = createPlainSlice('counter', initial, {
  added: (state, action: PayloadAction<number>) => ({ ...state, count: state.count + action.payload }),
  reset: () => initial,
});

describe('createPlainSlice', () => {
  it('names its actions and its place in the store as createSlice does', () => {
    const twin = createSlice({
      name: 'counter',
      initialState: initial,
      reducers: { added: (state, _action: PayloadAction<number>) => state, reset: () => initial },
    });
    expect(counter.actions.added(2)).toEqual(twin.actions.added(2));
    expect(counter.actions.reset()).toEqual(twin.actions.reset());
    expect(counter.actions.added.type).toBe('counter/added');
    expect(counter.actions.added.match(twin.actions.added(1))).toBe(true);
    expect(counter.reducerPath).toBe('counter');
    expect(counter.getInitialState()).toBe(initial);
  });

  it('starts from its initial state and runs the matching case reducer', () => {
    const state = counter.reducer(undefined, { type: '@@INIT' });
    expect(state).toBe(initial);
    expect(counter.reducer(state, counter.actions.added(3))).toEqual({ count: 3, label: '' });
    expect(counter.reducer({ count: 5, label: 'x' }, counter.actions.reset())).toBe(initial);
  });

  it('returns the same state for any other action, even one named like an object property', () => {
    const state = { count: 1, label: 'one' };
    for (const type of ['other/added', 'added', 'constructor', 'toString', '__proto__', 'counter/constructor']) {
      expect(counter.reducer(state, { type })).toBe(state);
    }
  });
});
