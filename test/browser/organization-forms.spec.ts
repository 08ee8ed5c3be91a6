import type { Locator, Page } from '@playwright/test';
import { expect, expectAccessible, signIn, test } from './fixtures';

const unique = (label: string): string =>
  `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const owner = { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` };

async function newOrganization(page: Page): Promise<{ id: string; name: string }> {
  const response = await page.request.post('/v1/organizations', {
    headers: owner,
    data: { name: unique('Forms Org') },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; name: string };
}

const background = (link: Locator): Promise<string> => link.evaluate((el) => getComputedStyle(el).backgroundColor);

test('a validation message goes as soon as the value is edited', async ({ page }) => {
  await signIn(page, '/organizations');
  const org = await newOrganization(page);
  await page.goto(`/organizations?org=${org.id}&tab=teams`);

  // The client's own rule, on a name.
  const teamName = page.getByLabel('New team name');
  await teamName.fill('   ');
  await page.getByRole('button', { name: 'Create team' }).click();
  await expect(page.getByText('Enter a name.')).toBeVisible();
  await expect(teamName).toHaveAttribute('aria-invalid', 'true');
  await teamName.pressSequentially('Blue');
  await expect(page.getByText('Enter a name.')).toBeHidden();
  await expect(teamName).not.toHaveAttribute('aria-invalid');

  // A field of the policy, then the server's refusal of another.
  await page.getByRole('link', { name: 'Policy' }).click();
  const perScan = page.getByLabel('Max tokens per scan');
  await perScan.fill('lots');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Enter a whole number of tokens')).toBeVisible();
  await perScan.fill('5000');
  await expect(page.getByText('Enter a whole number of tokens')).toBeHidden();
  await expect(perScan).not.toHaveAttribute('aria-invalid');

  const blocked = page.getByLabel('Blocked tools');
  await blocked.fill('x'.repeat(101));
  await page.getByRole('button', { name: 'Save policy' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'blocked_tools' });
  await expect(refusal.first()).toBeVisible();
  await blocked.fill('curl');
  await expect(refusal).toHaveCount(0);
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Policy saved.')).toBeVisible();
});

test("the server's refusal of an impact range goes when the range is changed", async ({ page }) => {
  await signIn(page, '/organizations');
  const org = await newOrganization(page);
  await page.goto(`/organizations?org=${org.id}&tab=policy`);
  const region = page.getByRole('region', { name: 'Re-evaluate stored scans' });
  const from = region.getByLabel('From');
  await from.fill('2020-01-01');
  await region.getByRole('button', { name: 'Preview re-evaluation' }).click();
  const refusal = region.getByRole('alert').filter({ hasText: '366 days' });
  await expect(refusal).toBeVisible();
  await from.fill(new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10));
  await expect(refusal).toHaveCount(0);
});

test('leaving an unsaved policy draft asks first, in the viewer and when the tab closes', async ({ page }) => {
  await signIn(page, '/organizations');
  const org = await newOrganization(page);
  await page.goto(`/organizations?org=${org.id}&tab=policy`);
  const perScan = page.getByLabel('Max tokens per scan');
  await perScan.fill('1234');

  const tabs = page.getByRole('navigation', { name: 'Organization sections' });
  await tabs.getByRole('link', { name: 'Teams' }).click();
  const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Stay and keep editing' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/tab=policy/);
  await expect(perScan).toHaveValue('1234');

  // Another page of the viewer, then discarding.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Scans' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Discard changes and leave' }).click();
  await expect(page).toHaveURL(/\/scans/);

  // Nothing changed, nothing asked.
  await page.goto(`/organizations?org=${org.id}&tab=policy`);
  await perScan.fill('');
  await tabs.getByRole('link', { name: 'Members' }).click();
  await expect(page).toHaveURL(/tab=members/);

  // Closing the tab with a draft: the browser's own prompt.
  await tabs.getByRole('link', { name: 'Policy' }).click();
  await perScan.fill('99');
  const prompt = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const shown = await prompt;
  expect(shown.type()).toBe('beforeunload');
  await shown.accept();
});

test('adding an organization member offers the users by name, as the team form does', async ({ page }) => {
  await signIn(page, '/organizations');
  const created = await page.request.post('/v1/users', { headers: owner, data: { name: unique('Picked') } });
  expect(created.status()).toBe(201);
  const { user } = (await created.json()) as { user: { id: string; name: string } };
  const org = await newOrganization(page);
  await page.goto(`/organizations?org=${org.id}&tab=members`);

  const picker = page.getByRole('combobox', { name: 'User', exact: true });
  await expect(picker.locator('option', { hasText: user.name })).toHaveText(`${user.name} (${user.id})`);
  await picker.selectOption({ label: `${user.name} (${user.id})` });
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('combobox', { name: `Role of ${user.name}` })).toHaveValue('member');
  // A member now: no longer offered.
  await expect(picker.locator('option', { hasText: user.name })).toHaveCount(0);
  await expect(picker).toHaveValue('');
});

test('the selected organization and team are marked on the Teams tab', async ({ page }) => {
  await signIn(page, '/organizations');
  const org = await newOrganization(page);
  const other = await newOrganization(page);
  const teams: { id: string; name: string }[] = [];
  for (const name of [unique('Alpha'), unique('Beta')]) {
    const response = await page.request.post(`/v1/organizations/${org.id}/teams`, { headers: owner, data: { name } });
    expect(response.status()).toBe(201);
    teams.push((await response.json()) as { id: string; name: string });
  }
  await page.goto(`/organizations?org=${org.id}&tab=teams&team=${teams[0]!.id}`);
  await expect(page.getByRole('heading', { name: `Members of ${teams[0]!.name}` })).toBeVisible();

  const list = page.getByRole('complementary', { name: 'Your organizations' });
  const selectedOrg = list.getByRole('link', { name: org.name });
  const otherOrg = list.getByRole('link', { name: other.name });
  const teamList = page.locator('.org-team-list');
  const selectedTeam = teamList.getByRole('link', { name: teams[0]!.name });
  const otherTeam = teamList.getByRole('link', { name: teams[1]!.name });

  for (const [selected, unselected] of [
    [selectedOrg, otherOrg],
    [selectedTeam, otherTeam],
  ] as const) {
    await expect(selected).toHaveAttribute('aria-current', /.+/);
    await expect(unselected).not.toHaveAttribute('aria-current');
    expect(await background(selected)).not.toBe(await background(unselected));
  }

  // The same on the other tabs.
  await page.getByRole('link', { name: 'Members' }).click();
  await expect(selectedOrg).toHaveAttribute('aria-current', /.+/);
  expect(await background(selectedOrg)).not.toBe(await background(otherOrg));
});
