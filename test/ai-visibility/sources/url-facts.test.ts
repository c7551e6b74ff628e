import { describe, expect, it } from 'vitest';
import { urlFacts } from '../../../src/ai-visibility/sources/url-facts.js';

describe('urlFacts', () => {
  it("gives the parser's protocol and ASCII host, and the URL without its fragment as the parser writes it", () => {
    expect(urlFacts('HTTPS://Пример.РФ:443/Path?q=1#top')).toEqual({
      protocol: 'https:',
      hostname: 'xn--e1afmkfd.xn--p1ai',
      normalised: 'https://xn--e1afmkfd.xn--p1ai/Path?q=1',
    });
    expect(urlFacts('https://acme.com')).toMatchObject({ normalised: 'https://acme.com/' });
    expect(urlFacts('not a url')).toBeNull();
  });

  it('parses each URL once while it is remembered, and stays right once its memory starts again', () => {
    expect(urlFacts('https://acme.com/a')).toBe(urlFacts('https://acme.com/a'));
    // Past the characters it holds (a million), it forgets and parses again.
    for (let index = 0; index < 600; index++) urlFacts(`https://e${index}.com/${'x'.repeat(2000)}`);
    expect(urlFacts('https://acme.com/a#b')).toEqual({
      protocol: 'https:',
      hostname: 'acme.com',
      normalised: 'https://acme.com/a',
    });
    expect(urlFacts(`https://e5.com/${'x'.repeat(2000)}`)).toMatchObject({ hostname: 'e5.com' });
  });

  it('counts the normalised forms in its bound: percent-encoding makes them up to nine times the URL', () => {
    const first = urlFacts('https://acme.com/remembered');
    // 120 URLs of 1 000 characters (120 000 as sent) whose normalised forms hold ~1 080 000.
    for (let index = 0; index < 120; index++) urlFacts(`https://e${index}.com/${'中'.repeat(1000)}`);
    expect(urlFacts('https://acme.com/remembered')).not.toBe(first);
  });
});
