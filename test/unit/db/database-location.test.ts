import { describe, expect, it } from 'vitest';
import {
  DatabaseUrlError,
  describeLocation,
  parseDatabaseUrl,
  redactDatabaseUrl,
} from '../../../src/main/db/database-location';

describe('parseDatabaseUrl', () => {
  it.each(['postgres://me@localhost:5432/scandesk', 'postgresql://me:pw@db.example.com/team?sslmode=require'])(
    'takes %s as a PostgreSQL store',
    (url) => {
      expect(parseDatabaseUrl(url)).toEqual({ kind: 'postgres', url });
    },
  );

  it.each([
    ['scandesk.db', /must be a URL/],
    ['mysql://me@localhost/scandesk', /postgres:\/\/ URLs only \(got mysql:\)/],
    ['postgres://me@localhost:5432', /must name a database/],
    ['postgres://me@localhost:5432/', /must name a database/],
  ])('refuses %s, saying why', (value, why) => {
    expect(() => parseDatabaseUrl(value)).toThrow(DatabaseUrlError);
    expect(() => parseDatabaseUrl(value)).toThrow(why);
  });
});

describe('redactDatabaseUrl', () => {
  it('masks the password and keeps the rest', () => {
    expect(redactDatabaseUrl('postgres://me:s3cret@db:5432/team')).toBe('postgres://me:***@db:5432/team');
    expect(describeLocation({ kind: 'postgres', url: 'postgres://me:s3cret@db/team' })).not.toContain('s3cret');
    expect(describeLocation({ kind: 'sqlite', file: '/data/scandesk.db' })).toBe('/data/scandesk.db');
  });

  it('never echoes what it cannot parse', () => {
    expect(redactDatabaseUrl('postgres://me:pw@[bad')).toBe('(unparseable database URL)');
  });
});
