import { describe, expect, it } from 'vitest';
import { messagePage, signInPage, switchPage } from '../../../../src/main/server/auth/sign-in-pages';

const question = { current: 'alice', next: 'bob', nonce: 'n0nce', action: '/sign-in/switch' };

describe('switchPage', () => {
  it('names both users, posts back to the server with the nonce, and offers staying first', () => {
    const page = switchPage(question);
    expect(page).toContain('You are signed in to Scandesk as <strong>alice</strong>');
    expect(page).toContain('<form method="post" action="/sign-in/switch">');
    expect(page).toContain('<input type="hidden" name="nonce" value="n0nce">');
    const stay = page.indexOf('value="cancel"');
    const go = page.indexOf('value="switch"');
    expect(stay).toBeGreaterThan(0);
    expect(go).toBeGreaterThan(stay);
    expect(page.slice(stay, go)).toContain('autofocus');
    expect(page).toContain('Switch to <strong>bob</strong>');
    expect(page).not.toMatch(/<script|\son\w+=/i);
  });

  it('asks to sign in when the session it would replace ended meanwhile', () => {
    const page = switchPage({ ...question, current: undefined });
    expect(page).toContain('signs in to Scandesk as <strong>bob</strong>');
    expect(page).toContain('Sign in as <strong>bob</strong>');
    expect(page).not.toContain('alice');
  });

  it('escapes names, nonce and action as text', () => {
    const page = switchPage({
      current: '<script>alert(1)</script>',
      next: `"><img src=x onerror='alert(2)'>&`,
      nonce: '"><b>',
      action: '/x"><b>',
    });
    expect(page).not.toMatch(/<script|<img|<b>/);
    expect(page).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(page).toContain('&#34;&#62;&#60;img src=x onerror=&#39;alert(2)&#39;&#62;&#38;');
  });
});

describe('messagePage', () => {
  it('is a complete document with the text', () => {
    const page = messagePage('Run <code>scandesk token</code>.');
    expect(page).toMatch(/^<!doctype html><html lang="en"><meta charset="utf-8">/);
    expect(page).toContain('<p>Run <code>scandesk token</code>.</p>');
  });
});

describe('signInPage', () => {
  it('shows the error and the token field again, posting to /sign-in where the token stays out of any address', () => {
    const page = signInPage({ error: 'That token is not valid.', returnTo: '/scans?tool=Claude' });
    expect(page).toContain('role="alert">That token is not valid.</p>');
    expect(page).toContain('<form class="sign-in" method="post" action="/sign-in">');
    expect(page).toMatch(/<input id="token" name="token" type="password"/);
    expect(page).toContain('<input type="hidden" name="return_to" value="/scans?tool=Claude">');
    expect(page).not.toMatch(/method="get"|<script|\son\w+=/i);
  });

  it('escapes the return path as text', () => {
    const page = signInPage({ error: 'x', returnTo: '/"><script>alert(1)</script>' });
    expect(page).not.toContain('<script>');
    expect(page).toContain('value="/&#34;&#62;&#60;script&#62;');
  });
});
