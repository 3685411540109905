import type { Request } from 'express';

/** Where clients reach this service: PUBLIC_BASE_URL when set, else the request's own host. */
export const baseUrlOf = (req: Request, publicBaseUrl: string | undefined): string =>
  publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
