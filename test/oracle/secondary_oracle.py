#!/usr/bin/python3
"""The real service's SECONDARY-zone behaviour against a real master, for secondary.oracle.test.ts.

Runs the designate oracle (../../../shared/tools/designate-oracle/serve.py, the real central
service in-process) with the real worker tasks that the fake message bus would otherwise drop:
GetZoneSerial (the SOA query of xfr_zone) and ZoneXfr (the AXFR, dnspython over TCP). The worker's
pool pushes are played by settle_all, as in the other oracle tests.

    secondary_oracle.py <oracle dir> <master port> [<silent port> <garbage port>]

prints one JSON object: the zone after each step, the event types of each step, the recordsets,
and, with the two more ports, what a failed transfer leaves: a zone the master refuses (the NSD
serves only example.com.), a master that accepts and never answers, one that sends garbage.
"""
import json
import os
import sys

sys.path.insert(0, sys.argv[1])
import serve  # noqa: E402  (patches the worker's pool casts; imports designate.cmd first)
from serve import Oracle, harness  # noqa: E402
from designate import conf, objects  # noqa: E402
from designate.worker import rpcapi as worker_rpcapi  # noqa: E402
from designate.worker.tasks import zone as worker_tasks  # noqa: E402

XFRS = []
worker_rpcapi.WorkerAPI.perform_zone_xfr = lambda self, context, zone, servers=None: XFRS.append(zone.id)
worker_rpcapi.WorkerAPI.get_serial_number = (
    lambda self, context, zone, host, port: worker_tasks.GetZoneSerial(None, context, zone, host, port)())
conf.CONF.set_override('serial_max_retries', 1, 'service:worker')
conf.CONF.set_override('serial_timeout', 2, 'service:worker')

KEYS = ('status', 'action', 'version', 'serial', 'transferred_at')
o = Oracle()
admin = o.admin.elevated(all_tenants=True)
ctx = o.ctx('p1')
out = {'steps': []}


def zone_state(zone_id):
    z = harness._obj(o.storage.get_zone(admin, zone_id))
    return {k: z.get(k) for k in KEYS}


def step(label, zone_id):
    out['steps'].append({'step': label, 'zone': zone_state(zone_id),
                         'events': [n['event_type'] for n in o.notifications()],
                         'xfrs': len(XFRS)})
    XFRS.clear()


master = '127.0.0.1:%s' % sys.argv[2]
body = o._parse({'name': 'example.com.', 'type': 'SECONDARY', 'masters': [master]}, objects.Zone())
body.email = 'hostmaster@example.com'  # the API controller's managed_resource_email
zone = o.svc.create_zone(ctx, body)
out['recordsets_before'] = o.list_recordsets('p1', zone.id)
step('create', zone.id)
o.settle_all()
step('push', zone.id)
# the create's transfer cast (recorded by step('create')) runs now, after the push, as in zoneward's queue
worker_tasks.ZoneXfr(None, admin, o.storage.get_zone(admin, zone.id))()
step('transfer', zone.id)
o.settle_all()
step('push after transfer', zone.id)
out['recordsets'] = o.list_recordsets('p1', zone.id)
o.svc.xfr_zone(ctx, zone.id)
step('xfr with the same serial', zone.id)
out['xfr_primary'] = harness._guard(o.svc.xfr_zone)(ctx, o.create_zone('p1', 'p.org.', 'a@p.org')['id'])
o.notifications()
out['xfr_other_project'] = harness._guard(o.svc.xfr_zone)(o.ctx('p2'), zone.id)
out['failures'] = []
if len(sys.argv) > 4:
    for label, host in (('refused', master), ('silent', '127.0.0.1:%s' % sys.argv[3]),
                        ('garbage', '127.0.0.1:%s' % sys.argv[4])):
        body = o._parse({'name': '%s.example.net.' % label, 'type': 'SECONDARY', 'masters': [host]},
                        objects.Zone())
        body.email = 'hostmaster@example.net'
        failing = o.svc.create_zone(ctx, body)
        o.settle_all()
        o.notifications()
        XFRS.clear()
        # The worker task logs the failure and returns; anything it raised would reach the worker's log too.
        try:
            worker_tasks.ZoneXfr(None, admin, o.storage.get_zone(admin, failing.id))()
        except Exception:  # noqa: BLE001
            pass
        o.settle_all()
        out['failures'].append({'label': label, 'zone': zone_state(failing.id),
                                'events': [n['event_type'] for n in o.notifications()]})
sys.stdout.write(json.dumps(out) + '\n')
sys.stdout.flush()
serve._cleanup_and_exit(o.db)
