// `prisma dev` (a local Prisma Postgres) is the only user of this package and this project never
// runs it: the real package needs Node 22, so a stand-in keeps `npm install` honest on Node 20.
throw new Error('`prisma dev` is not available in this project (see docs/node-versions.md).');
