import { describe, expect, it } from 'vitest';
import {
  DatabaseUrlError,
  describeLocation,
  maskSecrets,
  parseDatabaseUrl,
  redactDatabaseUrl,
  urlHasPassword,
  withPassword,
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

  it.each([
    ['postgres://me@db/team?password=s3cret&sslmode=require', 'postgres://me@db/team?password=***&sslmode=require'],
    ['postgres://me@db/team?sslpassword=s3cret', 'postgres://me@db/team?sslpassword=***'],
    ['postgres://me@db/team?pass%77ord=s3cret', 'postgres://me@db/team?password=***'],
    ['postgres://me@db/team?PASSWORD=s3cret', 'postgres://me@db/team?PASSWORD=***'],
    ['postgres://me:p@s3cret@db/team', 'postgres://me:***@db/team'],
    ['postgres://me:a@db/team?password=s3cret&password=two', 'postgres://me:***@db/team?password=***'],
  ])('masks every password of %s', (url, masked) => {
    expect(redactDatabaseUrl(url)).toBe(masked);
    expect(urlHasPassword(url)).toBe(true);
  });

  it('knows a URL without a password', () => {
    for (const url of ['postgres://me@db/team', 'postgres://db/team?sslmode=require', 'not a url']) {
      expect(urlHasPassword(url)).toBe(false);
    }
  });
});

describe('parseDatabaseUrl errors', () => {
  it.each(['postgres://me:se cret@[bad', 'host=db password=s3cret dbname=team', 'postgres://me:s3cret@db:port/team'])(
    'do not echo %s',
    (value) => {
      expect(() => parseDatabaseUrl(value)).toThrow(/not shown, since it may hold a password/);
      try {
        parseDatabaseUrl(value);
      } catch (error) {
        expect((error as Error).message).not.toMatch(/s3cret|se cret/);
      }
    },
  );
});

describe('maskSecrets', () => {
  it.each([
    ['could not connect to postgres://me:s3cret@db:5432/team', 'could not connect to postgres://me:***@db:5432/team'],
    ['url postgres://me:p@ss:s3cret@db/x end', 'url postgres://me:***@db/x end'],
    ['postgres://me@db/t?password=s3cret&a=b', 'postgres://me@db/t?password=***&a=b'],
    ['postgres://me@db/t?%70assword=s3cret', 'postgres://me@db/t?%70assword=***'],
    ['host=db user=me password=s3cret dbname=x', 'host=db user=me password=*** dbname=x'],
    ["host=db password='s3 \\' cret' dbname=x", 'host=db password=*** dbname=x'],
    ['host=db password = s3cret', 'host=db password = ***'],
    ['sslpassword=s3cret sslmode=verify-full', 'sslpassword=*** sslmode=verify-full'],
  ])('masks %s', (text, masked) => {
    expect(maskSecrets(text)).toBe(masked);
  });

  it('leaves text without passwords as it is', () => {
    for (const text of [
      'postgres://me@db:5432/team',
      'http://host:80/a?b=c&d=e',
      'user=me dbname=x',
      'ratio 3:4 @ noon',
    ]) {
      expect(maskSecrets(text)).toBe(text);
    }
  });
});

describe('withPassword', () => {
  it('puts any password into the user info, percent-encoded', () => {
    const url = withPassword('postgres://me@db/team', 'p@ss%w:rd/? \'"é');
    expect(url).toMatch(/^postgres:\/\/me:[^@/]+@db\/team$/);
    expect(decodeURIComponent(new URL(url).password)).toBe('p@ss%w:rd/? \'"é');
  });
});
