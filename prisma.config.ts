// Prisma CLI configuration. The JS engine with the pg adapter avoids the native
// schema/query engines, which cannot be downloaded on machines without internet.
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// With no DATABASE_URL at all, Prisma 6.19's `generate` decides it needs the native query
// engine and tries to download it (fresh machines, `npm install`). Generation never connects,
// so a placeholder URL is enough; commands that do connect fail clearly on it.
process.env.DATABASE_URL ??= 'postgresql://localhost:5432/placeholder';

export default defineConfig({
  schema: path.join('prisma', 'schema.prisma'),
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
});
