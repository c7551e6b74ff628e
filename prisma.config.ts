// Prisma CLI configuration. The JS engine with the pg adapter avoids the native
// schema/query engines, which cannot be downloaded on machines without internet.
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

export default defineConfig({
  schema: path.join('prisma', 'schema.prisma'),
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL ?? 'postgresql://localhost/unused' }),
});
