// Mail providers whose addresses belong to the public, not to a company: no workspace may
// claim them for single sign-on (anyone can get an address there).
export const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'hotmail.co.uk', 'live.com', 'msn.com', 'yahoo.com', 'yahoo.co.uk', 'yahoo.fr',
  'ymail.com', 'aol.com', 'icloud.com', 'me.com', 'mac.com', 'proton.me', 'protonmail.com', 'pm.me', 'gmx.com', 'gmx.de', 'gmx.net', 'web.de',
  'mail.com', 'zoho.com', 'yandex.com', 'yandex.ru', 'mail.ru', 'qq.com', '163.com', '126.com', 'fastmail.com', 'tutanota.com', 'tuta.io',
  'hey.com', 't-online.de', 'orange.fr', 'free.fr', 'laposte.net', 'libero.it', 'comcast.net', 'verizon.net', 'att.net',
]);
