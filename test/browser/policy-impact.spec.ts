import type { Scan } from '../../src/shared/api/scans';
import { expect, expectAccessible, signIn, test } from './fixtures';

// Before saving a policy, see what it would flag over stored scans; after saving, re-evaluate
// them, having seen the difference first.

test('preview a draft, save it, then re-evaluate the stored scans it changes', async ({ page }) => {
  await signIn(page, '/organizations');
  const headers = { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` };
  const org = await page.request.post('/v1/organizations', { headers, data: { name: `Impact ${Date.now()}` } });
  const orgId = ((await org.json()) as { id: string }).id;
  const submitted: Scan[] = [];
  for (let i = 0; i < 3; i++) {
    const response = await page.request.post('/v1/scans', {
      headers,
      data: {
        tool: i < 2 ? 'impact-tool' : 'other-tool',
        action: 'session',
        tokens: 5,
        organization_id: orgId,
        timeline: [{ timestamp: new Date().toISOString(), action: 'edit', tokens: 5 }],
      },
    });
    submitted.push((await response.json()) as Scan);
  }
  expect(submitted.every((scan) => scan.violations.length === 0)).toBe(true);

  await page.goto(`/organizations?org=${orgId}&tab=policy`);
  await page.getByLabel('Blocked tools').fill('IMPACT-TOOL');
  const draft = page.getByRole('region', { name: 'Preview impact' });
  await draft.getByRole('button', { name: 'Preview impact' }).click();
  const flagged = draft.getByRole('row', { name: /Flagged scans/ });
  await expect(flagged.getByRole('cell')).toHaveText(['0', '2', '+2']);
  await expect(draft.getByRole('table')).toContainText('3 submitted scans in the range; 2 would change.');
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Policy saved.')).toBeVisible();
  // Saving applies to new scans only: the stored ones still have no violations.
  const stored = (await (await page.request.get(`/v1/scans/${submitted[0]!.id}`, { headers })).json()) as Scan;
  expect(stored.violations).toEqual([]);

  const again = page.getByRole('region', { name: 'Re-evaluate stored scans' });
  await again.getByRole('button', { name: 'Preview re-evaluation' }).click();
  await expect(again.getByRole('table')).toContainText('2 would change');
  await again.getByRole('button', { name: 'Re-evaluate 2 scans' }).click();
  await expect(again.getByText('Re-evaluated: 2 scans changed')).toBeVisible();
  const after = (await (await page.request.get(`/v1/scans/${submitted[0]!.id}`, { headers })).json()) as Scan;
  expect(after.violations.map((v) => v.rule)).toEqual(['tool.blocked']);
});
