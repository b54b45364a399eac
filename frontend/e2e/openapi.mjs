// The API's document as a person reads it locally: /_local/api.html renders docs/openapi.json with Swagger UI
// (tools/openapi), under the shop's own Content-Security-Policy, one block per operation.

export default function registerOpenApiJourneys({ journey, check, eventually, BASE_URL }) {
  journey('the local API page shows every operation of the document the gateway serves', async ({ newPage }) => {
    const document = await (await fetch(`${BASE_URL}/api/openapi.json`)).json();
    const operations = Object.values(document.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    check(operations > 70, `the document names ${operations} operations`);

    const page = await newPage({ width: 1280, height: 800 });
    const refused = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${BASE_URL}/_local/api.html`);
    await eventually(() => page.locator('.opblock').count(), (n) => n === operations, 'the operations shown', 15000);
    check(await page.getByText('Drinks shop API').first().isVisible(), 'the title shows');
    await page.locator('.opblock-summary-path', { hasText: '/api/order/create/' }).first().click();
    await eventually(() => page.getByText('Idempotency-Key').count(), (n) => n > 0, 'the checkout header', 5000);
    check(refused.length === 0, `the page broke the CSP: ${refused.join('; ')}`);
  });
}
