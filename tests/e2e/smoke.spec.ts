import { expect, test } from './fixtures';

test.describe('smoke', () => {
  test('GET /api/health answers 200', async ({ request }) => {
    const res = await request.get('/api/health');
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { message: string; payload: { status: string } };
    expect(body.payload.status).toBe('ok');
  });

  test("the login page shows the button 'Intră în cont'", async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Intră în cont' })).toBeVisible();
  });
});
