import { describe, expect, it } from 'vitest';
import { isFromAnotherOrigin, isUserNavigation } from '../../../../src/main/server/request-guards/fetch-metadata';

const navigation = { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };

describe('isUserNavigation', () => {
  it('accepts a typed or pasted address, our own page, and clients without fetch metadata', () => {
    expect(isUserNavigation(navigation)).toBe(true);
    expect(isUserNavigation({ ...navigation, 'sec-fetch-site': 'same-origin' })).toBe(true);
    expect(isUserNavigation({})).toBe(true);
  });

  it('refuses what another page can make the browser send', () => {
    expect(isUserNavigation({ ...navigation, 'sec-fetch-site': 'same-site' })).toBe(false);
    expect(isUserNavigation({ ...navigation, 'sec-fetch-site': 'cross-site' })).toBe(false);
    expect(
      isUserNavigation({ 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }),
    ).toBe(false);
    expect(isUserNavigation({ ...navigation, 'sec-fetch-dest': 'iframe' })).toBe(false);
    expect(isUserNavigation({ ...navigation, 'sec-fetch-mode': 'cors' })).toBe(false);
  });
});

describe('isFromAnotherOrigin', () => {
  it('is true for same-site and cross-site, false for our own pages and non-browsers', () => {
    expect(isFromAnotherOrigin({ 'sec-fetch-site': 'same-site' })).toBe(true);
    expect(isFromAnotherOrigin({ 'sec-fetch-site': 'cross-site' })).toBe(true);
    expect(isFromAnotherOrigin({ 'sec-fetch-site': 'same-origin' })).toBe(false);
    expect(isFromAnotherOrigin({ 'sec-fetch-site': 'none' })).toBe(false);
    expect(isFromAnotherOrigin({})).toBe(false);
  });
});
