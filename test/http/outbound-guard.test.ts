import { describe, expect, it } from 'vitest';
import { addressRefusal, guardedLookup, urlRefusal } from '../../src/http/outbound-guard.js';

const strict = { allowHttp: false, allowPrivate: false };

describe('the outbound guard (webhooks, identity providers)', () => {
  it('refuses every non-public address, IPv4 and IPv6, including IPv4-mapped IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
    ]) {
      expect(addressRefusal(address, strict), address).not.toBeNull();
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(addressRefusal(address, strict), address).toBeNull();
  });

  it(
    'refuses IPv4-compatible IPv6 (::127.0.0.1, as URL parsers ' +
      'write it: ::7f00:1) and other embeddings of private IPv4',
    () => {
      for (const url of [
        'https://[::127.0.0.1]/',
        'https://[::7f00:1]/',
        'https://[::a9fe:a9fe]/',
        'https://[::ffff:127.0.0.1]/',
        'https://[2002:7f00:1::]/',
        'https://[64:ff9b::7f00:1]/',
      ]) {
        expect(urlRefusal(url, strict), url).not.toBeNull();
      }
    },
  );

  it('holds identity providers to port 443 unless private targets are allowed (tests)', () => {
    const ports = { ...strict, ports: [443] };
    expect(urlRefusal('https://idp.example.com/', ports)).toBeNull();
    expect(urlRefusal('https://idp.example.com:443/', ports)).toBeNull();
    expect(urlRefusal('https://idp.example.com:8443/', ports)).toMatch(/port 8443/);
    expect(urlRefusal('http://127.0.0.1:8080/', { allowHttp: true, allowPrivate: true, ports: [443] })).toBeNull();
  });

  it('allows private targets only when configured, and never multicast or unspecified', () => {
    const allow = { allowPrivate: true };
    expect(addressRefusal('127.0.0.1', allow)).toBeNull();
    expect(addressRefusal('10.0.0.1', allow)).toBeNull();
    expect(addressRefusal('224.0.0.1', allow)).not.toBeNull();
    expect(addressRefusal('0.0.0.0', allow)).not.toBeNull();
  });

  it('checks URLs: https only unless allowed, no credentials, no private literals or loopback names', () => {
    expect(urlRefusal('https://hooks.example.com/x', strict)).toBeNull();
    expect(urlRefusal('http://hooks.example.com/x', strict)).toMatch(/https/);
    expect(urlRefusal('http://hooks.example.com/x', { ...strict, allowHttp: true })).toBeNull();
    expect(urlRefusal('ftp://hooks.example.com/x', { ...strict, allowHttp: true })).toMatch(/https or http/);
    expect(urlRefusal('https://user:pw@hooks.example.com/', strict)).toMatch(/credentials/);
    expect(urlRefusal('https://127.0.0.1/x', strict)).toMatch(/loopback/);
    expect(urlRefusal('https://[::ffff:7f00:1]/x', strict)).toMatch(/loopback/);
    expect(urlRefusal('https://169.254.169.254/latest/meta-data', strict)).toBe(
      '169.254.169.254 is a link-local address',
    );
    expect(urlRefusal('https://localhost/x', strict)).toMatch(/loopback name/);
    expect(urlRefusal('not a url', strict)).toMatch(/absolute URL/);
  });

  it('fails the lookup the socket connects with when a name resolves to a refused address', async () => {
    const lookup = (policy: typeof strict) =>
      new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) =>
        guardedLookup(policy)('localhost', { all: true }, (error, address) => resolve({ error, address })),
      );
    const refused = await lookup(strict);
    expect(refused.error?.code).toBe('ETARGETREFUSED');
    expect(refused.error?.message).toMatch(/localhost resolves to .* loopback address/);
    const allowed = await lookup({ allowHttp: true, allowPrivate: true });
    expect(allowed.error).toBeNull();
    expect(allowed.address).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) })]),
    );
  });
});

describe('the refusal reads as English', () => {
  it('puts the article its range name is spoken with', () => {
    expect(addressRefusal('0.0.0.0', strict)).toBe('0.0.0.0 is an unspecified address');
    expect(addressRefusal('127.0.0.1', strict)).toBe('127.0.0.1 is a loopback address');
    expect(addressRefusal('fd00::1', strict)).toBe('fd00::1 is a unique local address');
    expect(addressRefusal('::1', strict)).toBe('::1 is a loopback address');
    expect(addressRefusal('::', strict)).toBe(':: is an unspecified address');
    expect(addressRefusal('100.64.0.1', strict)).toBe('100.64.0.1 is a carrier-grade NAT address');
    expect(addressRefusal('192.168.1.1', strict)).toBe('192.168.1.1 is a private address');
    expect(addressRefusal('2001:db8::1', strict)).toBe('2001:db8::1 is a reserved address');
    expect(addressRefusal('::7f00:1', strict)).toBe('::7f00:1 is an IPv4-compatible address');
  });
});

describe('names', () => {
  it('refuses localhost with or without the root dot', () => {
    expect(urlRefusal('https://localhost./x', strict)).toBe('localhost. is a loopback name');
    expect(urlRefusal('https://api.localhost./x', strict)).toBe('api.localhost. is a loopback name');
    expect(urlRefusal('https://example.com./x', strict)).toBeNull();
  });
});
