import { expect, expectAccessible, saveScreenshot, signIn, test } from './fixtures';

const unique = (label: string): string =>
  `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const owner = { Authorization: `Bearer ${process.env.SCANDESK_TOKEN}` };

test('create, rename and delete an organization, typing its name to confirm', async ({ signedIn: page }) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organizations' }).click();
  await expect(page.getByRole('heading', { name: 'Your organizations' })).toBeVisible();

  const create = page.getByLabel('New organization name');
  await create.fill('   ');
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByText('Enter a name.')).toBeVisible();

  const name = unique('Browser Org');
  await create.fill(name);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page).toHaveURL(/org=org_/);
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  await expect(page.getByText('Your role: owner')).toBeVisible();

  // The selection is in the URL: a reload comes back to the same organization.
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();

  const renamed = `${name} renamed`;
  await page.getByLabel('Organization name', { exact: true }).fill(renamed);
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByRole('heading', { level: 2, name: renamed })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(renamed) })).toBeVisible();

  await page.getByRole('button', { name: 'Delete organization…' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete “${renamed}”?` });
  await expect(dialog).toBeVisible();
  const confirm = dialog.getByLabel(/to confirm/);
  await expect(confirm).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Delete organization' })).toBeDisabled();
  await confirm.fill(name);
  await expect(dialog.getByRole('button', { name: 'Delete organization' })).toBeDisabled();
  await confirm.fill(renamed);
  await dialog.getByRole('button', { name: 'Delete organization' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(/org=/);
  await expect(page.getByRole('link', { name: new RegExp(renamed) })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Your organizations' })).toBeFocused();
});

test('teams, team members and the policy editor with the server validation message', async ({ signedIn: page }) => {
  const created = await page.request.post('/v1/organizations', { headers: owner, data: { name: unique('Teams Org') } });
  const org = (await created.json()) as { id: string };
  await page.goto(`/organizations?org=${org.id}&tab=teams`);

  const team = unique('Red team');
  await page.getByLabel('New team name').fill(team);
  await page.getByRole('button', { name: 'Create team' }).click();
  await page.getByRole('link', { name: team }).click();
  await expect(page).toHaveURL(/team=team_/);
  await expect(page.getByText('This team has no members yet.')).toBeVisible();
  const me = (await (await page.request.get('/v1/me', { headers: owner })).json()) as { id: string };
  await page.getByLabel('Add an organization member').selectOption(me.id);
  await page.getByRole('button', { name: 'Add to team' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'local' })).toBeVisible();
  await page.getByRole('button', { name: `Remove local from ${team}` }).click();
  await expect(page.getByText('This team has no members yet.')).toBeVisible();

  await page.getByRole('link', { name: 'Policy' }).click();
  await expect(page).toHaveURL(/tab=policy/);
  await page.getByLabel('Max tokens per scan').fill('lots');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Enter a whole number of tokens')).toBeVisible();
  await page.getByLabel('Max tokens per scan').fill('5000');
  await page.getByLabel('Blocked tools').fill('x'.repeat(101));
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'blocked_tools' }).first()).toBeVisible();
  await page.getByLabel('Blocked tools').fill('curl, wget');
  await page.getByLabel('Only these tools').check();
  await page.getByLabel('Allowed tool names').fill('claude\ncodex');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Policy saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Max tokens per scan')).toHaveValue('5000');
  await expect(page.getByLabel('Allowed tool names')).toHaveValue('claude\ncodex');
  await expect(page.getByLabel('Blocked tools')).toHaveValue('curl\nwget');
  await expectAccessible(page);
});

test('a member sees the owner-only controls disabled, with the reason', async ({ page, browser }) => {
  await signIn(page, '/organizations');
  const userResponse = await page.request.post('/v1/users', { headers: owner, data: { name: unique('member') } });
  expect(userResponse.status()).toBe(201);
  const { user, token } = (await userResponse.json()) as { user: { id: string; name: string }; token: string };
  const orgName = unique('Shared Org');
  const org = (await (
    await page.request.post('/v1/organizations', { headers: owner, data: { name: orgName } })
  ).json()) as { id: string };
  const put = await page.request.put(`/v1/organizations/${org.id}/members/${user.id}`, {
    headers: owner,
    data: { role: 'member' },
  });
  expect(put.ok()).toBe(true);

  // The owner's view, for the screenshot: every control on.
  await page.goto(`/organizations?org=${org.id}&tab=members`);
  await expect(page.getByRole('combobox', { name: `Role of ${user.name}` })).toBeEnabled();
  await expectAccessible(page);
  await saveScreenshot(page, 'organizations');

  const context = await browser.newContext({ baseURL: process.env.SCANDESK_URL });
  const member = await context.newPage();
  await member.goto(`/?token=${encodeURIComponent(token)}`);
  await expect(member).not.toHaveURL(/token=/);
  await member.goto(`/organizations?org=${org.id}&tab=members`);
  await expect(member.getByRole('heading', { level: 2, name: orgName })).toBeVisible();
  await expect(member.getByText('Your role: member')).toBeVisible();

  const remove = member.getByRole('button', { name: 'Delete organization…' });
  await expect(remove).toBeDisabled();
  await expect(remove).toHaveAttribute('title', 'Only owners can delete an organization');
  await expect(member.getByText('Only owners can delete an organization')).toBeVisible();
  await expect(member.getByRole('button', { name: 'Rename' })).toBeDisabled();
  await expect(member.getByText('Only owners and admins can rename an organization')).toBeVisible();

  const roleSelect = member.getByRole('combobox', { name: `Role of ${user.name}` });
  await expect(roleSelect).toBeDisabled();
  await expect(roleSelect).toHaveAttribute('title', 'Only owners can add members or change roles');
  await expect(member.getByText('Only owners can add members or change roles').first()).toBeVisible();
  await expect(member.getByRole('button', { name: 'Add member' })).toBeDisabled();

  await member.getByRole('link', { name: 'Policy' }).click();
  await expect(member.getByRole('button', { name: 'Save policy' })).toBeDisabled();
  await expect(member.getByText('Only owners and admins can edit the policy')).toBeVisible();
  await expectAccessible(member);
  await saveScreenshot(member, 'organizations-member');
  await context.close();
});
