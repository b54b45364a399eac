import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { makeOrder } from '../../testing/orderFixtures';
import { orderDetailReceived, orderDetailRequested, selectOrderDetail } from './orderSlice';

describe('order detail slice', () => {
  it('ignores an answer for an order the page has moved away from', () => {
    const store = makeStore();
    store.dispatch(orderDetailRequested('o-1'));
    store.dispatch(orderDetailRequested('o-2'));
    store.dispatch(orderDetailReceived({ arg: 'o-1', result: makeOrder({ _id: 'o-1' }) }));
    expect(selectOrderDetail(store.getState())).toMatchObject({ id: 'o-2', status: 'loading', order: null });
    store.dispatch(orderDetailReceived({ arg: 'o-2', result: makeOrder({ _id: 'o-2' }) }));
    expect(selectOrderDetail(store.getState()).order?._id).toBe('o-2');
  });
});
