import { err, ok, safeTry, type Result, type ResultAsync } from 'neverthrow';
import { zonePool, type DnsDeps, type NameserversBody } from '../kernel/deps.js';
import { listOwned, type ListEnvelope } from '../../kernel/list-command.js';
import type { ApiError } from '../../kernel/api-error.js';
import { command } from '../../kernel/command.js';
import { requireProject } from '../../kernel/context.js';
import { emptyRequestBody } from '../../kernel/validation.js';
import type { ListSpec } from '../../kernel/list-query.js';
import { movingZone, renamingZone, updatingDeletingZone, zoneHasSubzone } from './zone-errors.js';
import { authorizeZone } from '../kernel/zone-policy.js';
import { presentZone, type Zone, type ZoneBody } from '../kernel/zone.js';
import { zoneRepository as zones } from '../kernel/zone-store.js';
import { checkTtlFloor, nullTtl } from '../kernel/zone-rules.js';
import { markedForDeletion, softDeleted, updated } from '../kernel/zone-lifecycle.js';
import { emitZoneEvent, insertZone, removeZone, requestTransfer, saveAndPush, visibleZone, zoneIdParam } from '../kernel/zone-operations.js';
import { parseZoneBody, validateZone, type ZoneInput } from './zone-input.js';

/**
 * The zone commands of the API (`/v2/zones`): create, read, list, update, delete, abandon and
 * the nameservers, over what every DNS concept does to a zone (domain/zone-operations.ts).
 * @module
 */

// Shared by every zone that has none: a million zones need not hold a million empty objects.
const NO_MASTERS: readonly string[] = Object.freeze([]);
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/** The zone body a command answers: as it stands now (ACTIVE when the push already happened). */
const answer = (deps: DnsDeps, pushed: { zone: Zone }): ZoneBody => presentZone(pushed.zone, deps.baseUrl);

/** A create body, parsed and checked as the real service's schema and object do. */
function parseCreate(body: unknown, deps: DnsDeps): Result<ZoneInput & { name: string; type: 'PRIMARY' | 'SECONDARY' }, ApiError> {
  if (body === undefined || body === null) return err(emptyRequestBody());
  const parsed = parseZoneBody(body, undefined, deps.limits);
  if (parsed.isErr()) return err(parsed.error);
  const input = parsed.value;
  const type = input.type ?? 'PRIMARY';
  const valid = validateZone({ type, email: input.email, masters: input.masters ?? NO_MASTERS, name: input.name }, input);
  if (valid.isErr()) return err(valid.error);
  input.type = type;
  return ok(input as ZoneInput & { name: string; type: 'PRIMARY' | 'SECONDARY' });
}

/** `POST /v2/zones`. @internal */
export function createZone(deps: DnsDeps, ctx: unknown, body: unknown): ResultAsync<ZoneBody, ApiError> {
  return command(deps, ctx, {
    body,
    parse: () => parseCreate(body, deps),
    // create_zone: admin or owner, the owner being the caller's own project, which it must have.
    authorize: (caller) => requireProject(caller),
    transaction: async (uow, caller, input) => {
      // Covering: nothing was read before, and what the create reads is guarded by the locks
      // insertZone takes first, so an adapter may leave out its own read tracking (docs/postgres.md).
      const inserted = await insertZone(deps, uow, caller, {
        projectId: caller.projectId!,
        name: input.name,
        email: input.type === 'PRIMARY' ? input.email! : deps.limits.managedResourceEmail,
        description: input.description ?? null,
        ttl: input.ttl === undefined ? 3600 : input.ttl,
        type: input.type,
        masters: input.masters ?? NO_MASTERS,
        attributes: input.attributes ?? NO_ATTRIBUTES,
      }, true);
      // The real service asks its worker for a transfer of every new SECONDARY zone.
      if (inserted.isOk() && input.type === 'SECONDARY') await requestTransfer(deps, uow, inserted.value.zone.id, false);
      return inserted.map((pushed) => answer(deps, pushed));
    },
  });
}

/** `GET /v2/zones/{id}`. @internal */
export function getZone(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<ZoneBody, ApiError> {
  return command(deps, ctx, {
    parse: () => zoneIdParam(id),
    transaction: async ({ tx }, caller, zoneId) => (await visibleZone(tx, caller, zoneId)).map((z) => presentZone(z, deps.baseUrl)),
  });
}

/** `GET /v2/zones/{id}/nameservers`. @internal */
export function zoneNameservers(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<NameserversBody, ApiError> {
  return command(deps, ctx, {
    parse: () => zoneIdParam(id),
    transaction: async ({ tx }, caller, zoneId) =>
      (await visibleZone(tx, caller, zoneId)).map((z) => {
        const pool = zonePool(deps, z);
        return { nameservers: pool.nameservers.map((ns) => ({ hostname: ns.hostname, priority: ns.priority })) };
      }),
  });
}

/** How zones are listed. @internal */
export const zoneListSpec = (baseUrl: string): ListSpec<Zone> => ({
  path: '/v2/zones',
  envelope: 'zones',
  metadata: true,
  filters: {
    name: (z) => z.name,
    type: (z) => z.type,
    email: (z) => (z.type === 'SECONDARY' ? null : z.email),
    status: (z) => z.status,
    description: (z) => z.description,
    ttl: (z) => (z.type === 'SECONDARY' ? null : z.ttl),
  },
  sortKeys: {
    created_at: (z) => z.createdAt,
    id: (z) => z.id,
    updated_at: (z) => z.updatedAt,
    name: (z) => z.name,
    tenant_id: (z) => z.projectId,
    serial: (z) => z.serial,
    ttl: (z) => z.ttl,
    status: (z) => z.status,
  },
  present: (z) => presentZone(z, baseUrl),
});

/**
 * One page of zones (`GET /v2/zones`).
 *
 * @category Zones
 */
export type ZoneList = ListEnvelope<'zones', ZoneBody>;

/** `GET /v2/zones`. @internal */
export function listZones(deps: DnsDeps, ctx: unknown, query: unknown): ResultAsync<ZoneList, ApiError> {
  return listOwned<ZoneList, Zone>(deps, ctx, query, zoneListSpec(deps.baseUrl), zones.listScope);
}

/** `PATCH /v2/zones/{id}`. @internal */
export function updateZone(deps: DnsDeps, ctx: unknown, id: unknown, body: unknown): ResultAsync<ZoneBody, ApiError> {
  return command(deps, ctx, {
    body,
    ids: () => zoneIdParam(id),
    parse: () => zoneIdParam(id).andThen((zoneId) => (body === undefined || body === null ? err(emptyRequestBody()) : ok(zoneId))),
    transaction: (uow, caller, zoneId) =>
      safeTry(async function* () {
        const zone = yield* await visibleZone(uow.tx, caller, zoneId);
        if (zone.action === 'DELETE') return err(updatingDeletingZone());
        // The body is read against the stored zone: `name` and `type` may be resent unchanged.
        const input = yield* parseZoneBody(body, zone, deps.limits);
        yield* validateZone(
          { type: zone.type, email: input.email ?? zone.email, masters: input.masters ?? zone.masters, name: zone.name },
          input,
        );
        yield* authorizeZone('update_zone', deps.forbiddenStatus, caller, zone.projectId);
        if (input.projectId !== undefined) return err(movingZone());
        if (input.name !== undefined) return err(renamingZone());
        if (input.ttl !== undefined && input.ttl !== null && input.ttl !== zone.ttl) {
          yield* checkTtlFloor(input.ttl, deps.limits, caller.isAdmin);
        }
        if (input.ttl === null) return err(nullTtl());
        const changes: { -readonly [K in keyof Zone]?: Zone[K] } = {};
        if (input.email !== undefined) changes.email = input.email;
        if (input.description !== undefined) changes.description = input.description;
        if (input.ttl !== undefined) changes.ttl = input.ttl;
        if (input.masters !== undefined) changes.masters = input.masters;
        if (input.attributes !== undefined) {
          changes.attributes = input.attributes;
          changes.transferredAt = null;
        }
        const saved = await saveAndPush(deps, uow, updated(zone, deps.clock(), changes), 'update', 'UPDATE');
        // Masters sent at all count as changed, as any assignment does there; a transfer follows.
        if (zone.type === 'SECONDARY' && input.masters !== undefined) await requestTransfer(deps, uow, zone.id, false);
        return ok(answer(deps, saved));
      }),
  });
}

/** `DELETE /v2/zones/{id}`: answered `DELETE/PENDING`; the zone goes once the targets removed it. @internal */
export function deleteZone(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<ZoneBody, ApiError> {
  return command(deps, ctx, {
    parse: () => zoneIdParam(id),
    transaction: (uow, caller, zoneId) =>
      safeTry(async function* () {
        const zone = yield* await visibleZone(uow.tx, caller, zoneId);
        yield* authorizeZone('delete_zone', deps.forbiddenStatus, caller, zone.projectId);
        if (await zones.hasSubzones(uow.tx, zone)) return err(zoneHasSubzone());
        const next = markedForDeletion(zone, deps.clock());
        await saveAndPush(deps, uow, next, 'delete', 'DELETE');
        return ok(presentZone(next, deps.baseUrl));
      }),
  });
}

/** `POST /v2/zones/{id}/tasks/abandon`: admin only; gone at once, targets untouched. @internal */
export function abandonZone(deps: DnsDeps, ctx: unknown, id: unknown): ResultAsync<void, ApiError> {
  return command(deps, ctx, {
    // The real service's route checks the id before central checks abandon_zone (observed on the
    // wire: a member's POST /v2/zones/abc/tasks/abandon is a 400 invalid_uuid).
    parse: (caller) => zoneIdParam(id).andThen((zoneId) => authorizeZone('abandon_zone', deps.forbiddenStatus, caller, null).map(() => zoneId)),
    transaction: (uow, caller, zoneId) =>
      safeTry(async function* () {
        const zone = yield* await visibleZone(uow.tx, caller, zoneId);
        if (await zones.hasSubzones(uow.tx, zone)) return err(zoneHasSubzone());
        await removeZone(uow.tx, zone);
        emitZoneEvent(deps, uow, 'delete', softDeleted(zone));
        return ok(undefined);
      }),
  });
}
