// The API client's types, checked by the compiler: `npm run typecheck` (tsc -b, whose tsconfig.test.json
// covers the tests) fails when a reply, body, path or parameter stops matching the OpenAPI document. Each
// `@ts-expect-error` must stay an error: were the call accepted, the directive itself would fail the build.
import { describe, expectTypeOf, it } from 'vitest';
import { createApiClient, type ApiClient, type Body, type Reply, type Schemas } from './api';

/** Calls that are only compiled, never run. */
function neverRun(_calls: (api: ApiClient) => void): void {}

describe('the API client is typed by the OpenAPI document', () => {
  it('replies with the shapes the document gives', () => {
    expectTypeOf<Reply<'get', '/product/{_id}'>>().toEqualTypeOf<Schemas['Product']>();
    expectTypeOf<Reply<'get', '/product/{_id}'>['price']>().toEqualTypeOf<number>();
    expectTypeOf<Reply<'get', '/product/{_id}'>['category']>().toEqualTypeOf<string | null>();
    expectTypeOf<Reply<'get', '/product/'>>().toEqualTypeOf<Schemas['Product'][]>();
    // Two successes: 200/201 the order's id, 202 the bank's step.
    expectTypeOf<Reply<'post', '/order/create/'>>().toEqualTypeOf<string | Schemas['ActionRequired']>();
    // The order, or only where it stands (the bare id without the owner's token or the link's key).
    expectTypeOf<Reply<'get', '/order/Orderdetails/{id}'>>().toEqualTypeOf<Schemas['OrderPage'] | Schemas['OrderProgress']>();
    expectTypeOf<Schemas['OrderPage']['email']>().toEqualTypeOf<string | undefined>();
  });

  it('takes the bodies the document gives', () => {
    expectTypeOf<Body<'post', '/code/customer/'>>().toEqualTypeOf<{ code: string }>();
    expectTypeOf<Body<'post', '/uploading/'>>().toEqualTypeOf<FormData>();
    expectTypeOf<Body<'post', '/user/logout/'>>().toEqualTypeOf<undefined>();
  });

  it('types what a call resolves to', () => {
    const api = createApiClient({ getToken: () => null, onAuthFailure: () => undefined });
    neverRun(() => {
      expectTypeOf(api.get('/product/{_id}', { params: { _id: 'p-1' } })).resolves.toEqualTypeOf<Schemas['Product']>();
      expectTypeOf(api.get('/home/home/uk/')).resolves.toEqualTypeOf<Schemas['Home']>();
      expectTypeOf(api.post('/user/verify/', { email: 'a@example.com', code: '123456' })).resolves.toEqualTypeOf<Schemas['Session']>();
    });
  });

  it('refuses what the document does not allow', () => {
    neverRun((api) => {
      // @ts-expect-error a drink's price is a number or its text, not a boolean
      void api.post('/product/create/', { name: 'Cola', price: true });
      // @ts-expect-error a field the document does not have
      void api.post('/code/customer/', { code: 'SUMMER', discount: 10 });
      // @ts-expect-error a JSON route takes no FormData
      void api.post('/product/create/', new FormData());
      // @ts-expect-error the e-mail is missing
      void api.post('/user/verify/', { code: '123456' });
      // @ts-expect-error not a path of the document
      void api.get('/products/');
      // @ts-expect-error a path is written as the document writes it, its placeholder filled by params
      void api.get('/product/p-1');
      // @ts-expect-error the document has no GET on this path
      void api.get('/product/create/');
      // @ts-expect-error a path with a placeholder needs its parameter
      void api.get('/product/{_id}');
      // @ts-expect-error the placeholder is _id, not id
      void api.get('/product/{_id}', { params: { id: 'p-1' } });
      // @ts-expect-error the page number is a number
      void api.get('/home/drinks/hom/uk/uk/', { query: { pageNumber: 'two' } });
      // @ts-expect-error this route reads no query
      void api.get('/product/', { query: { pageNumber: 1 } });
      // @ts-expect-error a role is 'customer' or 'admin'
      void api.put('/user/role/{email}', { role: 'owner' }, { params: { email: 'a@example.com' } });
    });
    expectTypeOf<Reply<'get', '/product/{_id}'>>().not.toHaveProperty('cost');
  });
});
