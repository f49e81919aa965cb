import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121212538_initial } from './Migration20261121212538_initial';
import { Migration20261121213000_results_view } from './Migration20261121213000_results_view';
import { Migration20261121214003_webhooks } from './Migration20261121214003_webhooks';
import { Migration20261121220000_results_view_lateral } from './Migration20261121220000_results_view_lateral';
import { Migration20261121220955_channels } from './Migration20261121220955_channels';
import { Migration20261121221936_studio_sessions } from './Migration20261121221936_studio_sessions';
import { Migration20261121223000_webhook_endpoint_deleted_at } from './Migration20261121223000_webhook_endpoint_deleted_at';
import { Migration20261122090000_demo_seed } from './Migration20261122090000_demo_seed';
import { Migration20261122090000_read_model } from './Migration20261122090000_read_model';
import { Migration20261123090000_ranking_entry_derived } from './Migration20261123090000_ranking_entry_derived';
import { Migration20261124090000_fighter_standing } from './Migration20261124090000_fighter_standing';
import { Migration20261124100000_ranking_entry_key } from './Migration20261124100000_ranking_entry_key';
import { Migration20261124110000_ranking_rows_run_trigger } from './Migration20261124110000_ranking_rows_run_trigger';
import { Migration20261126000000_withhold_minor_opponents } from './Migration20261126000000_withhold_minor_opponents';
import { Migration20261126010000_idempotency_key } from './Migration20261126010000_idempotency_key';
import { Migration20261126020000_live_subjects } from './Migration20261126020000_live_subjects';
import { Migration20261126030000_webhook_fanout_health } from './Migration20261126030000_webhook_fanout_health';
import { Migration20261127040000_card_bouts } from './Migration20261127040000_card_bouts';
import { Migration20261127042000_webhook_endpoint_rate } from './Migration20261127042000_webhook_endpoint_rate';
import { Migration20261128050000_webhook_change_payloads } from './Migration20261128050000_webhook_change_payloads';
import { Migration20261128070000_result_row_shown } from './Migration20261128070000_result_row_shown';

/** Migrations are listed explicitly so they load the same from src (tests) and dist. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121212538_initial', class: Migration20261121212538_initial },
  { name: 'Migration20261121213000_results_view', class: Migration20261121213000_results_view },
  { name: 'Migration20261121214003_webhooks', class: Migration20261121214003_webhooks },
  { name: 'Migration20261121220000_results_view_lateral', class: Migration20261121220000_results_view_lateral },
  { name: 'Migration20261121220955_channels', class: Migration20261121220955_channels },
  { name: 'Migration20261121221936_studio_sessions', class: Migration20261121221936_studio_sessions },
  { name: 'Migration20261121223000_webhook_endpoint_deleted_at', class: Migration20261121223000_webhook_endpoint_deleted_at },
  { name: 'Migration20261122090000_demo_seed', class: Migration20261122090000_demo_seed },
  { name: 'Migration20261122090000_read_model', class: Migration20261122090000_read_model },
  { name: 'Migration20261123090000_ranking_entry_derived', class: Migration20261123090000_ranking_entry_derived },
  { name: 'Migration20261124090000_fighter_standing', class: Migration20261124090000_fighter_standing },
  { name: 'Migration20261124100000_ranking_entry_key', class: Migration20261124100000_ranking_entry_key },
  { name: 'Migration20261124110000_ranking_rows_run_trigger', class: Migration20261124110000_ranking_rows_run_trigger },
  { name: 'Migration20261126000000_withhold_minor_opponents', class: Migration20261126000000_withhold_minor_opponents },
  { name: 'Migration20261126010000_idempotency_key', class: Migration20261126010000_idempotency_key },
  { name: 'Migration20261126020000_live_subjects', class: Migration20261126020000_live_subjects },
  { name: 'Migration20261126030000_webhook_fanout_health', class: Migration20261126030000_webhook_fanout_health },
  { name: 'Migration20261127040000_card_bouts', class: Migration20261127040000_card_bouts },
  { name: 'Migration20261127042000_webhook_endpoint_rate', class: Migration20261127042000_webhook_endpoint_rate },
  { name: 'Migration20261128050000_webhook_change_payloads', class: Migration20261128050000_webhook_change_payloads },
  { name: 'Migration20261128070000_result_row_shown', class: Migration20261128070000_result_row_shown },
];
