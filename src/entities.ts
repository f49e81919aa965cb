import { DemoSeed } from './demo/demo-seed.entity';
import { AuditEntry } from './domain/audit/audit-entry.entity';
import { SportEvent } from './domain/events/event.entity';
import { Certificate, Fighter, FighterIdentity, Licence } from './domain/fighters/fighter.entities';
import { ApiKey, Partner } from './domain/partners/partner.entities';
import { RankingEntry, RankingRun } from './domain/rankings/ranking.entities';
import { Continent, Country, Division } from './domain/reference/reference.entities';
import { Bout } from './domain/results/bout.entity';
import { Broadcast, BroadcastTelemetry } from './domain/channels/broadcast.entities';
import { Channel, ChannelApiKey, ChannelMember, StudioUser } from './domain/channels/channel.entities';
import { StudioSession } from './domain/studio/studio-session.entity';
import { WebhookAttempt, WebhookChange, WebhookDelivery, WebhookEndpoint, WebhookEvent } from './webhooks/webhook.entities';

/**
 * Every entity, listed explicitly so discovery never scans the file system. The registry lives at
 * the composition root (beside container.ts), not in src/db: the database edge knows no feature,
 * it is handed this list by whoever opens the database (main, worker, CLI, scripts, tests).
 */
export const entities = [
  Continent,
  Country,
  Division,
  Fighter,
  FighterIdentity,
  Licence,
  Certificate,
  SportEvent,
  Bout,
  RankingRun,
  RankingEntry,
  Partner,
  ApiKey,
  AuditEntry,
  WebhookEndpoint,
  WebhookChange,
  WebhookEvent,
  WebhookDelivery,
  WebhookAttempt,
  Channel,
  StudioUser,
  ChannelMember,
  ChannelApiKey,
  Broadcast,
  BroadcastTelemetry,
  StudioSession,
  DemoSeed,
];
