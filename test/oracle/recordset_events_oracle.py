#!/usr/bin/python3
"""The real service's events and statuses around recordset writes, for recordset-events.oracle.test.ts.

Runs the designate oracle (../../../shared/tools/designate-oracle/serve.py: the real central
service in-process, the worker's pool pushes played by settle_all) through a fixed scenario:
a zone created and served, a recordset created, changed, described and deleted (each write then
served), the zone's TTL changed and served, the zone deleted, then a zone imported and served,
a recordset created in it and one of its imported recordsets changed (each then served), then
a recordset created and the zone deleted before it was served. After each step it records the event types central
notified, the zone's status, action, serial and version, and every recordset's name, type,
status, action and version, as the v2 API would show them.

    recordset_events_oracle.py <oracle dir>

prints one JSON object: {"steps": [...]}.
"""
import json
import sys

sys.path.insert(0, sys.argv[1])
import serve  # noqa: E402  (patches the worker's pool casts; imports designate.cmd first)
from serve import Oracle, harness  # noqa: E402
from designate import objects  # noqa: E402

o = Oracle()
admin = o.admin.elevated(all_tenants=True)
ctx = o.ctx('p1')
out = {'steps': []}


def zone_state(zone_id):
    z = harness._obj(o.storage.get_zone(admin, zone_id))
    return {k: z.get(k) for k in ('status', 'action', 'version')}


def recordsets(zone_id):
    rows = o.svc.find_recordsets(ctx, {'zone_id': zone_id})
    return sorted('%s %s %s/%s v%s' % (r.name, r.type, r.status, r.action, r.version) for r in rows)


def step(label, zone_id):
    out['steps'].append({'step': label, 'zone': zone_state(zone_id),
                         'events': [n['event_type'] for n in o.notifications()],
                         'recordsets': recordsets(zone_id)})


def parse(body, obj):
    return o._parse(body, obj)


zone = o.svc.create_zone(ctx, parse({'name': 'example.com.', 'email': 'a@example.com', 'type': 'PRIMARY'}, objects.Zone()))
step('zone create', zone.id)
o.settle_all()
step('zone served', zone.id)

rs = parse({'name': 'www.example.com.', 'type': 'A', 'records': ['192.0.2.1']}, objects.RecordSet())
rs = o.svc.create_recordset(ctx, zone.id, rs)
step('recordset create', zone.id)
o.settle_all()
step('create served', zone.id)

rs = parse({'records': ['192.0.2.2', '192.0.2.3'], 'ttl': 600}, o.svc.get_recordset(ctx, zone.id, rs.id))
rs = o.svc.update_recordset(ctx, rs)
step('recordset update', zone.id)
o.settle_all()
step('update served', zone.id)

rs = parse({'description': 'only this'}, o.svc.get_recordset(ctx, zone.id, rs.id))
rs = o.svc.update_recordset(ctx, rs)
step('description update', zone.id)
o.settle_all()
step('description served', zone.id)

empty = parse({'name': 'empty.example.com.', 'type': 'TXT', 'records': []}, objects.RecordSet())
empty = o.svc.create_recordset(ctx, zone.id, empty)
step('empty create', zone.id)
o.settle_all()
step('empty served', zone.id)

o.svc.delete_recordset(ctx, zone.id, rs.id)
step('recordset delete', zone.id)
o.settle_all()
step('delete served', zone.id)

zone = o.svc.get_zone(ctx, zone.id)
zone = o.svc.update_zone(ctx, parse({'ttl': 600}, zone))
step('zone update', zone.id)
o.settle_all()
step('zone update served', zone.id)

o.svc.delete_zone(ctx, zone.id)
step('zone delete', zone.id)
o.settle_all()
o.notifications()

text = ('$ORIGIN imp.test.\n$TTL 300\n@ IN SOA ns1.example.org. h.imp.test. 1 3600 600 86400 300\n'
        '@ IN NS ns1.example.org.\nwww IN A 192.0.2.1\nalias IN CNAME www\n')
imp = o.import_zone('p1', text)
step('import', imp['zone_id'])
o.settle_all()
step('import served', imp['zone_id'])

# The imported zone PENDING again (an update): the imported recordsets, and one of them changed.
zid = imp['zone_id']
extra = parse({'name': 'mail.imp.test.', 'type': 'A', 'records': ['192.0.2.5']}, objects.RecordSet())
o.svc.create_recordset(ctx, zid, extra)
step('write in import', zid)
o.settle_all()
step('write in import served', zid)
www = [r for r in o.svc.find_recordsets(ctx, {'zone_id': zid}) if r.name == 'www.imp.test.' and r.type == 'A'][0]
www = parse({'records': ['192.0.2.9']}, o.svc.get_recordset(ctx, zid, www.id))
o.svc.update_recordset(ctx, www)
step('imported recordset update', zid)
o.settle_all()
step('imported update served', zid)

# A write, then the zone deleted before the pool served the write.
late = parse({'name': 'late.imp.test.', 'type': 'TXT', 'records': ['"late"']}, objects.RecordSet())
o.svc.create_recordset(ctx, zid, late)
o.svc.delete_zone(ctx, zid)
step('zone delete with a write waiting', zid)

sys.stdout.write(json.dumps(out, indent=1) + '\n')
