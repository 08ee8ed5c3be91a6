import { describe, expect, it } from 'vitest';
import { pageOfPath, scanIdOfPath } from '../../../../src/renderer/src/app/page-of-path';

describe('pageOfPath', () => {
  it('names the page of each route the router has', () => {
    expect(pageOfPath('/')).toBe('overview');
    expect(pageOfPath('/scans')).toBe('scans');
    expect(pageOfPath('/scans/scan_01J')).toBe('scanDetail');
    expect(pageOfPath('/import')).toBe('import');
    expect(pageOfPath('/organizations')).toBe('organizations');
    expect(pageOfPath('/settings')).toBe('settings');
  });

  it('reads a trailing slash as the same page', () => {
    expect(pageOfPath('/scans/')).toBe('scans');
    expect(pageOfPath('/scans/scan_01J/')).toBe('scanDetail');
  });

  it('names none for a path no route shows, whatever its name', () => {
    expect(pageOfPath('/nowhere')).toBeUndefined();
    expect(pageOfPath('/scans/scan_01J/evidence')).toBeUndefined();
    expect(pageOfPath('/constructor')).toBeUndefined();
    expect(pageOfPath('/__proto__')).toBeUndefined();
  });
});

describe('scanIdOfPath', () => {
  it("reads a scan page's id, decoded, and nothing from any other page", () => {
    expect(scanIdOfPath('/scans/scan_01J')).toBe('scan_01J');
    expect(scanIdOfPath('/scans/scan%2001J/')).toBe('scan 01J');
    expect(scanIdOfPath('/scans')).toBeUndefined();
    expect(scanIdOfPath('/scans/scan_01J/evidence')).toBeUndefined();
  });

  it('reads no id from a path that is not valid percent-encoding', () => {
    expect(scanIdOfPath('/scans/%E0%A4%A')).toBeUndefined();
  });
});
