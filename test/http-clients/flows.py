#!/usr/bin/python3
"""A user's whole session with the real Python clients, against any server of both APIs.

    /usr/bin/python3 flows.py DNS_URL QUOTA_URL > transcript.json

DNS_URL serves Designate's v2 API (and the versions document at `/`), QUOTA_URL Barbican's v1
quota calls; no keystone. The DNS clients use keystoneauth1's `noauth` plugin, sending the caller
as `X-Auth-Token: noauth:<project>:<roles>`, and an endpoint override; tempest's QuotaClient gets
an auth provider that adds Barbican's no-auth headers (`X-Project-Id`, `X-Roles`).

Each step checks what a user of the client relies on (and raises otherwise), then records what the
client returned, normalised (ids numbered in order of appearance, times and serials masked, the
server's origin replaced), so that the transcripts of two servers can be compared line by line.
The transcript is printed as JSON on stdout; a failed step is recorded with its error and the flow
goes on, so one difference does not hide the others.
"""
import json
import os
import re
import subprocess
import sys
import time
import traceback

from keystoneauth1 import noauth
from keystoneauth1 import session as ks_session

DNS_URL, QUOTA_URL = sys.argv[1].rstrip('/'), sys.argv[2].rstrip('/')
ALICE, BOB, CAROL, DAVE, ADMIN = 'p-alice', 'p-bob', 'p-carol', 'p-dave', 'p-admin'


class NoAuthToken(noauth.NoAuth):
    """keystoneauth1's `noauth` plugin, sending who calls as a no-auth token."""

    def __init__(self, project, roles, endpoint=None):
        super().__init__(endpoint=endpoint)
        self.token = 'noauth:%s:%s' % (project, roles)

    def get_token(self, session, **kwargs):
        return self.token


def session(project, roles):
    return ks_session.Session(auth=NoAuthToken(project, roles))


# ---------------------------------------------------------------- transcript and normalisation

UUID = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}')
SOA = re.compile(r'(\S+\.? \S+\.?) \d+ \d+ (?=\d+ \d+ \d+)')
TIME_KEYS = {'created_at', 'updated_at', 'transferred_at'}
ids = {}
transcript = []
failures = []


def _id(m):
    return ids.setdefault(m.group(0), '<id%d>' % (len(ids) + 1))


def norm(value):
    if isinstance(value, dict):
        out = {}
        for k, v in sorted(value.items()):
            if k in TIME_KEYS:
                out[k] = None if v is None else '<time>'
            elif k == 'serial':
                out[k] = '<serial>'
            elif k == 'key' and isinstance(v, str):
                out[k] = '<key>'
            elif k == 'request_id':
                out[k] = '<request-id>'
            elif k == 'records' and isinstance(v, list):
                # the real service returns a recordset's records in set or row-id order: no order
                out[k] = sorted(norm(v))
            else:
                out[k] = norm(v)
        return out
    if isinstance(value, (list, tuple)):
        return [norm(v) for v in value]
    if isinstance(value, str):
        # an SOA's serial is a time and its refresh is randomised, on both servers
        value = SOA.sub(r'\1 <serial> <refresh> ', value)
        value = value.replace(DNS_URL, '<origin>').replace(QUOTA_URL, '<origin>')
        return UUID.sub(_id, value)
    return value


def err(e):
    """What a user sees of a client exception: its class, and the service's status/type/message."""
    out = {'error': type(e).__name__}
    for attr in ('code', 'type', 'message'):
        v = getattr(e, attr, None)
        if v is not None and not callable(v):
            out[attr] = v
    if getattr(e, 'resp_body', None) is not None:   # tempest's exceptions keep the service's body
        out['body'] = e.resp_body
    if isinstance(e, (AssertionError, KeyError)):
        out['message'] = str(e)
    resp = getattr(e, 'response', None)
    if resp is not None and hasattr(resp, 'status_code'):
        out['status'] = resp.status_code
    if hasattr(e, 'status_code') and e.status_code is not None:
        out['status'] = e.status_code
    return out


# Steps that need a part of the server not built yet (`needs=`), named by the caller; the same
# steps are left out of every server's transcript.
PENDING = set(filter(None, os.environ.get('FLOWS_PENDING', '').split(',')))


def step(name, fn, expect_error=None, needs=None):
    """Runs one user action; records its normalised result, or its error."""
    if needs in PENDING:
        return None
    try:
        value = fn()
    except Exception as e:  # noqa: BLE001  (the client's own exception types, whatever they are)
        got = err(e)
        if expect_error is None or got['error'] != expect_error:
            failures.append({'step': name, 'got': got, 'expected': expect_error or 'success',
                             'trace': traceback.format_exc(limit=3)})
        transcript.append([name, norm(got)])
        return None
    if expect_error is not None:
        failures.append({'step': name, 'got': 'success', 'expected': expect_error})
    transcript.append([name, norm(value)])
    return value


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def wait_for(fn, done, what, timeout=20):
    deadline = time.time() + timeout
    while True:
        value = fn()
        if done(value):
            return value
        if time.time() > deadline:
            raise AssertionError('timed out waiting for %s: %r' % (what, value))
        time.sleep(0.05)


def names(zones, in_order=False):
    """The zones' names; sorted unless the order is what is checked (the services order equal
    creation times by random ids)."""
    found = [z['name'] for z in zones]
    return found if in_order else sorted(found)


# ---------------------------------------------------------------- python-designateclient

def designateclient_flow():
    from designateclient.v2 import client as dclient

    def client(project, roles, **kw):
        return dclient.Client(session=session(project, roles), endpoint_override=DNS_URL + '/v2', **kw)

    alice, bob = client(ALICE, 'member'), client(BOB, 'member')
    admin = client(ADMIN, 'admin')
    admin_all = client(ADMIN, 'admin', all_projects=True)

    def active(c, zone_id):
        return wait_for(lambda: c.zones.get(zone_id), lambda z: z['status'] == 'ACTIVE',
                        'zone %s ACTIVE' % zone_id)

    zones = {}
    for label, ttl, desc in [('alpha', 3600, 'the first'), ('bravo', 600, 'second one'), ('charlie', 1200, 'third'),
                             ('delta', 3600, 'fourth'), ('echo', 300, 'the fifth')]:
        name = '%s.example.com.' % label
        z = step('dc zone create %s' % name,
                 lambda: alice.zones.create(name, email='hostmaster@example.com', ttl=ttl, description=desc))
        if z:
            zones[label] = z['id']
    for label, zid in zones.items():
        step('dc zone active %s' % label, lambda: active(alice, zid)['status'])

    step('dc zone create duplicate', lambda: alice.zones.create('alpha.example.com.', email='a@example.com'),
         expect_error='Conflict')
    step('dc zone create bad name', lambda: alice.zones.create('no-dot', email='a@example.com'),
         expect_error='BadRequest')
    step('dc zone create bad email', lambda: alice.zones.create('foxtrot.example.com.', email='nope'),
         expect_error='BadRequest')

    step('dc zone list', lambda: names(alice.zones.list()))
    step('dc zone list name filter', lambda: names(alice.zones.list({'name': 'charlie.example.com.'})))
    step('dc zone list wildcard filter', lambda: names(alice.zones.list({'description': '*the*'})))
    step('dc zone list ttl filter', lambda: names(alice.zones.list({'ttl': '3600'})))
    step('dc zone list status filter', lambda: names(alice.zones.list({'status': 'ACTIVE'})))
    step('dc zone list sort name desc',
         lambda: names(alice.zones.list({'sort_key': 'name', 'sort_dir': 'desc'}), in_order=True))
    # two zones share a TTL, and both services order ties by (random) id: the TTLs show the order
    step('dc zone list sort ttl asc',
         lambda: [z['ttl'] for z in alice.zones.list({'sort_key': 'ttl', 'sort_dir': 'asc'})])
    step('dc zone list bad sort key', lambda: alice.zones.list({'sort_key': 'nope'}), expect_error='BadRequest')

    def pages():
        page = alice.zones.list({'sort_key': 'name'}, limit=2)
        out = [names(page, in_order=True)]
        while page.next_page:
            page = alice.zones.list(page.next_link_criterion)
            out.append(names(page, in_order=True))
        return out
    step('dc zone list pages of 2', pages)
    step('dc zone list marker', lambda: names(alice.zones.list({'sort_key': 'name'}, marker=zones.get('bravo'),
                                                                 limit=2), in_order=True))
    step('dc zone list bad marker', lambda: alice.zones.list(marker='not-a-uuid'), expect_error='BadRequest')
    step('dc zone list bad limit', lambda: alice.zones.list(limit='-1'), expect_error='BadRequest')

    step('dc zone show', lambda: alice.zones.get(zones['alpha']))
    step('dc zone show by name', lambda: alice.zones.get('bravo.example.com.')['id'])
    step('dc zone show unknown', lambda: alice.zones.get('6a5fbb7d-9d1c-4ad7-9cc3-0cbe8df2b4e1'),
         expect_error='NotFound')
    step('dc zone show of another project', lambda: bob.zones.get(zones['alpha']), expect_error='NotFound')

    step('dc zone set', lambda: alice.zones.update(zones['alpha'], {'ttl': 7200, 'description': 'changed',
                                                                    'email': 'dns@example.com'}))
    step('dc zone set active', lambda: (lambda z: [z['status'], z['ttl'], z['description'], z['email']])(
        active(alice, zones['alpha'])))
    step('dc zone set name refused', lambda: alice.zones.update(zones['alpha'], {'name': 'other.example.com.'}),
         expect_error='BadRequest')
    step('dc zone set bad ttl', lambda: alice.zones.update(zones['alpha'], {'ttl': -5}), expect_error='BadRequest')

    step('dc nameservers', lambda: alice.nameservers.list(zones['alpha']))
    step('dc zone axfr of a primary zone', lambda: alice.zones.axfr(zones['alpha']), expect_error='BadRequest',
         needs='zones-xfr')

    step('dc recordset list', lambda: sorted([r['type'], r['name'], r['records']]
                                             for r in alice.recordsets.list(zones['alpha'])))
    ns = step('dc recordset list type filter', lambda: alice.recordsets.list(zones['alpha'], {'type': 'NS'}))
    if ns:
        step('dc recordset show', lambda: alice.recordsets.get(zones['alpha'], ns[0]['id']))
    step('dc recordset list all zones', lambda: sorted(r['zone_name'] for r in
                                                       alice.recordsets.list_all_zones({'type': 'SOA'})),
         needs='recordsets-all')
    step('dc recordset list paged', lambda: len(alice.recordsets.list(zones['alpha'], limit=1)))

    # recordset writes (#19), then the zone is as before, so later steps see the same zone
    rs = step('dc recordset create', lambda: alice.recordsets.create(
        zones['alpha'], 'www', 'A', ['192.0.2.1', '192.0.2.2'], description='web', ttl=300), needs='recordset-writes')
    if rs:
        # records are a set: the real service answers them in no fixed order
        step('dc recordset active', lambda: sorted(wait_for(lambda: alice.recordsets.get(zones['alpha'], rs['id']),
                                                            lambda r: r['status'] == 'ACTIVE', 'recordset ACTIVE')['records']))
        step('dc recordset create duplicate', lambda: alice.recordsets.create(zones['alpha'], 'www', 'A', ['192.0.2.9']),
             expect_error='Conflict')
        step('dc recordset create bad record', lambda: alice.recordsets.create(zones['alpha'], 'bad', 'A', ['nope']),
             expect_error='BadRequest')
        step('dc recordset create in another project', lambda: bob.recordsets.create(
            zones['alpha'], 'x.alpha.example.com.', 'A', ['192.0.2.9']), expect_error='NotFound')
        step('dc recordset set', lambda: alice.recordsets.update(zones['alpha'], rs['id'],
                                                                  {'records': ['192.0.2.3'], 'ttl': 600}))
        step('dc recordset set active', lambda: wait_for(
            lambda: alice.recordsets.get(zones['alpha'], rs['id']), lambda r: r['status'] == 'ACTIVE',
            'recordset ACTIVE')['records'])  # one record: no order to mask
        step('dc recordset delete', lambda: alice.recordsets.delete(zones['alpha'], rs['id']))
        step('dc recordset deleted', lambda: wait_for(
            lambda: [r['id'] for r in alice.recordsets.list(zones['alpha'])], lambda ids_: rs['id'] not in ids_,
            'recordset gone') and 'gone')
        active(alice, zones['alpha'])

    # transfer bravo from alice to bob
    tr = step('dc transfer request create',
              lambda: alice.zone_transfers.create_request(zones['bravo'], BOB, description='to bob'))
    if tr:
        step('dc transfer request show', lambda: alice.zone_transfers.get_request(tr['id']))
        step('dc transfer request list', lambda: [r['zone_name'] for r in alice.zone_transfers.list_requests()])
        step('dc transfer request set', lambda: alice.zone_transfers.update_request(tr['id'],
                                                                                     {'description': 'for bob'}))
        step('dc transfer request show as target', lambda: bob.zone_transfers.get_request(tr['id'])['zone_name'])
        step('dc transfer accept wrong key', lambda: bob.zone_transfers.accept_request(tr['id'], 'WRONGKEY00000000'),
             expect_error='Forbidden')
        acc = step('dc transfer accept', lambda: bob.zone_transfers.accept_request(tr['id'], tr['key']))
        if acc:
            step('dc transfer accept complete', lambda: wait_for(
                lambda: bob.zone_transfers.get_accept(acc['id']), lambda a: a['status'] == 'COMPLETE',
                'accept COMPLETE'))
            step('dc transfer accept list as member', lambda: bob.zone_transfers.list_accepts(),
                 expect_error='Forbidden')
            step('dc transfer accept list', lambda: [a['status'] for a in admin_all.zone_transfers.list_accepts()])
        step('dc zone show after transfer', lambda: bob.zones.get(zones['bravo'])['project_id'])
        step('dc zone gone from old project', lambda: alice.zones.get(zones['bravo']), expect_error='NotFound')
    tr2 = step('dc transfer request create 2', lambda: alice.zone_transfers.create_request(zones['charlie'], BOB))
    if tr2:
        step('dc transfer request delete', lambda: alice.zone_transfers.delete_request(tr2['id']))
        step('dc transfer request deleted', lambda: alice.zone_transfers.get_request(tr2['id']),
             expect_error='NotFound')

    # import, then poll the import until it is done
    zonefile = ('$ORIGIN golf.example.com.\n$TTL 3600\n'
                'golf.example.com. IN SOA ns1.example.org. admin.golf.example.com. 1 3600 600 86400 3600\n'
                'golf.example.com. IN NS ns1.example.org.\n'
                'www.golf.example.com. IN A 192.0.2.10\n'
                'mail.golf.example.com. 600 IN MX 10 mx.golf.example.com.\n')
    imp = step('dc zone import create', lambda: alice.zone_imports.create(zonefile))
    if imp:
        done = step('dc zone import poll', lambda: wait_for(lambda: alice.zone_imports.get_import_record(imp['id']),
                                                            lambda i: i['status'] != 'PENDING', 'import done'))
        step('dc zone import list', lambda: [i['status'] for i in alice.zone_imports.list()['imports']])
        if done and done.get('zone_id'):
            step('dc imported zone records', lambda: sorted([r['type'], r['name'], r['records'], r['ttl']]
                                                            for r in alice.recordsets.list(done['zone_id'])))
            zones['golf'] = done['zone_id']
        step('dc zone import delete', lambda: alice.zone_imports.delete(imp['id']))
    step('dc zone import bad file', lambda: wait_for(
        lambda: alice.zone_imports.get_import_record(alice.zone_imports.create('garbage here\n')['id']),
        lambda i: i['status'] != 'PENDING', 'import done'))

    exp = step('dc zone export create', lambda: alice.zone_exports.create(zones['alpha']))
    if exp:
        step('dc zone export poll', lambda: wait_for(lambda: alice.zone_exports.get_export_record(exp['id']),
                                                     lambda e: e['status'] != 'PENDING', 'export done'))
        step('dc zone export list', lambda: [e['status'] for e in alice.zone_exports.list()['exports']])
        step('dc zone export file', lambda: alice.zone_exports.get_export(exp['id']))
        step('dc zone export delete', lambda: alice.zone_exports.delete(exp['id']))

    # admin: all projects, sudo
    step('dc zone list all projects', lambda: sorted(
        (z['name'], z['project_id']) for z in client(ADMIN, 'admin', all_projects=True).zones.list()))
    step('dc zone list all projects as member', lambda: client(ALICE, 'member', all_projects=True).zones.list(),
         expect_error='Forbidden')
    sudo = client(ADMIN, 'admin', sudo_project_id=BOB)
    step('dc zone list sudo', lambda: names(sudo.zones.list()))
    hotel = step('dc zone create sudo', lambda: sudo.zones.create('hotel.example.com.', email='h@example.com'))
    step('dc zone sudo as member', lambda: client(ALICE, 'member', sudo_project_id=BOB).zones.list(),
         expect_error='Forbidden')
    if hotel:
        step('dc zone created by sudo belongs to target', lambda: bob.zones.get(hotel['id'])['project_id'])

    # quotas of the DNS service: another project's need an admin acting for all projects
    step('dc quota show of another project', lambda: admin.quotas.list(ALICE), expect_error='Forbidden')
    step('dc quota show own', lambda: alice.quotas.list(ALICE))
    step('dc quota show', lambda: admin_all.quotas.list(ALICE))
    step('dc quota set', lambda: admin_all.quotas.update(ALICE, {'zones': 5, 'zone_records': 500}))
    step('dc quota show after set', lambda: admin_all.quotas.list(ALICE))
    step('dc quota enforced', lambda: alice.zones.create('india.example.com.', email='i@example.com'),
         expect_error='OverQuota')
    step('dc quota set as member', lambda: alice.quotas.update(ALICE, {'zones': 100}), expect_error='Forbidden')
    step('dc quota set bad value', lambda: admin_all.quotas.update(ALICE, {'zones': -2}), expect_error='BadRequest')
    step('dc quota reset', lambda: admin_all.quotas.reset(ALICE))
    step('dc quota show after reset', lambda: admin_all.quotas.list(ALICE))

    # delete and abandon
    step('dc zone delete', lambda: alice.zones.delete(zones['delta']))
    step('dc zone delete gone', lambda: wait_for(lambda: [z['id'] for z in alice.zones.list()],
                                                 lambda ids_: zones['delta'] not in ids_, 'zone deleted') and 'gone')
    step('dc zone delete again', lambda: alice.zones.delete(zones['delta']), expect_error='NotFound')
    step('dc zone abandon as member', lambda: alice.zones.abandon(zones['echo']), expect_error='Forbidden')
    step('dc zone abandon', lambda: client(ADMIN, 'admin', sudo_project_id=ALICE).zones.abandon(zones['echo']))
    step('dc zone abandoned', lambda: alice.zones.get(zones['echo']), expect_error='NotFound')
    return zones


# ---------------------------------------------------------------- openstacksdk

def sdk_flow():
    import openstack

    def conn(project, roles):
        return openstack.connection.Connection(session=session(project, roles), dns_endpoint_override=DNS_URL,
                                               dns_api_version='2')

    bob = conn(BOB, 'member')
    z = step('sdk zone create', lambda: bob.dns.create_zone(name='kilo.example.com.', email='k@example.com',
                                                            ttl=900, description='sdk').to_dict(computed=False))
    if not z:
        return
    zid = z['id']
    step('sdk zone active', lambda: wait_for(lambda: bob.dns.get_zone(zid), lambda x: x.status == 'ACTIVE',
                                             'ACTIVE').status)
    step('sdk zones', lambda: sorted(x.name for x in bob.dns.zones()))
    step('sdk zones filtered', lambda: [x.name for x in bob.dns.zones(name='kilo.example.com.')])
    step('sdk zones paged', lambda: sorted(x.name for x in bob.dns.zones(limit=1)))
    step('sdk find zone', lambda: bob.dns.find_zone('kilo.example.com.').id)
    step('sdk zone update', lambda: bob.dns.update_zone(zid, ttl=1800).ttl)
    step('sdk recordsets', lambda: sorted(r.type for r in bob.dns.recordsets(zid)))
    rs = step('sdk recordset create', lambda: bob.dns.create_recordset(
        zid, name='www.kilo.example.com.', type='A', records=['192.0.2.5'], ttl=300).to_dict(computed=False),
        needs='recordset-writes')
    if rs:
        step('sdk recordset update', lambda: bob.dns.update_recordset(
            bob.dns.get_recordset(rs['id'], zid), records=['192.0.2.6']).records)
        step('sdk recordset delete', lambda: bob.dns.delete_recordset(rs['id'], zid) and None)
        step('sdk recordset deleted', lambda: wait_for(lambda: sorted(r.type for r in bob.dns.recordsets(zid)),
                                                       lambda t: 'A' not in t, 'recordset gone'))

    step('sdk recordsets all zones', lambda: sorted(r.zone_name for r in bob.dns.recordsets(type='NS')),
         needs='recordsets-all')
    # openstacksdk 0.101's zone exports and imports live at /v2/zones/tasks/export and .../import
    # (the service's paths end in 'exports' and 'imports'): the real service answers 404 there too,
    # so these are the client's bugs, shown the same on both servers.
    step('sdk zone export create (client bug: wrong path)', lambda: bob.dns.create_zone_export(zid),
         expect_error='ResourceNotFound')
    step('sdk zone exports (client bug: wrong path)', lambda: list(bob.dns.zone_exports()),
         expect_error='HttpException')
    step('sdk zone import (client bug: wrong path)',
         lambda: bob.dns.create_zone_import(zone_file_contents='$ORIGIN lima.example.com.\n'),
         expect_error='ResourceNotFound')
    # and its transfer request resource has no `zone_id` URI parameter: a KeyError before anything is sent
    step('sdk transfer request create (client bug)',
         lambda: bob.dns.create_zone_transfer_request(zid, target_project_id=ALICE), expect_error='KeyError')
    step('sdk transfer requests', lambda: [r.zone_name for r in bob.dns.zone_transfer_requests()])
    step('sdk zone delete', lambda: bob.dns.delete_zone(zid).action)
    step('sdk zone deleted', lambda: wait_for(lambda: bob.dns.find_zone(zid, ignore_missing=True),
                                              lambda x: x is None, 'deleted') is None)


# ---------------------------------------------------------------- the openstack CLI

def cli(project, roles, commands):
    """One `openstack` process runs a batch of commands (its interactive mode, fed on stdin, which
    takes its options from the environment only); returns each JSON document printed, and stderr."""
    env = dict(os.environ, OS_AUTH_TYPE='admin_token', OS_TOKEN='noauth:%s:%s' % (project, roles),
               OS_ENDPOINT=DNS_URL + '/v2', OS_DNS_API_VERSION='2', OS_CLOUD='')
    out = subprocess.run(['openstack'], input='\n'.join(commands) + '\n', capture_output=True, text=True,
                         timeout=120, env=env)
    docs, text, dec = [], out.stdout, json.JSONDecoder()
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        try:
            doc, i = dec.raw_decode(text, i)
        except ValueError:  # not JSON (a zone file): the rest of the output, as text
            doc, i = text[i:], len(text)
        docs.append(doc)
    errors = [line for line in out.stderr.splitlines() if line.strip()]
    return docs, errors


def cli_step(name, project, roles, commands, errors=0):
    """A batch of CLI commands as one step; `errors` is how many of them should fail."""
    try:
        docs, errs = cli(project, roles, commands)
    except Exception as e:  # noqa: BLE001
        failures.append({'step': name, 'got': err(e), 'expected': 'the CLI runs'})
        return None
    value = {'out': docs, 'err': errs}
    transcript.append([name, norm(value)])
    if len(errs) != errors:
        failures.append({'step': name, 'got': errs, 'expected': '%d failed commands' % errors})
    return value


def cli_flow():
    from designateclient.v2 import client as dclient
    carol = dclient.Client(session=session(CAROL, 'member'), endpoint_override=DNS_URL + '/v2')
    j = 'juliet.example.com.'
    first = cli_step('cli zone create list show set', CAROL, 'member', [
        'zone create --email c@example.com --ttl 900 --description cli %s -c name -c email -c ttl -f json' % j,
        'zone create --email c@example.com mike.example.com. -c name -c type -f json',
        'zone create --email c@example.com %s' % j,                       # a duplicate: fails
        'zone list -c name -c type --sort-column name -f json',
        'zone list --name %s -c name --sort-column name -f json' % j,
        'zone list --ttl 900 -c name --sort-column name -f json',
        'zone list --all-projects -c name --sort-column name -f json',  # a member: fails
        'zone show %s -c name -c email -c ttl -c description -c project_id -f json' % j,
        'zone set --ttl 1200 --description changed %s -c ttl -c description -f json' % j,
        'zone show nosuch.example.com. -f json',                           # fails
        'recordset list %s -c name -c type --sort-column type -f json' % j,
    ] + ([] if 'zones-xfr' in PENDING else [
        'zone axfr %s' % j,                                                # a primary zone: fails
    ]) + ([] if 'recordset-writes' in PENDING else [
        'recordset create --type A --record 192.0.2.7 --ttl 300 %s www -c name -c type -c records -f json' % j,
        'recordset set --record 192.0.2.8 %s www.%s -c name -c records -f json' % (j, j),
        'recordset create --type A --record nope %s bad -f json' % j,       # fails
        'recordset delete %s www.%s -c name -c action -f json' % (j, j),
    ]), errors=3 + ('zones-xfr' not in PENDING) + ('recordset-writes' not in PENDING))
    if not first:
        return
    wait_for(lambda: carol.zones.list({'name': j}), lambda zs: zs and zs[0]['status'] == 'ACTIVE', 'ACTIVE')
    cli_step('cli export create', CAROL, 'member', ['zone export create %s -c status -c zone_id -f json' % j])
    exp = wait_for(lambda: carol.zone_exports.list()['exports'],
                   lambda es: es and es[0]['status'] == 'COMPLETE', 'export COMPLETE')[0]['id']
    zonefile = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'zoneward-cli-import-%d.zone' % os.getpid())
    with open(zonefile, 'w') as f:
        f.write('$ORIGIN november.example.com.\n$TTL 300\n'
                'november.example.com. IN SOA ns1.example.org. h.november.example.com. 7 3600 600 86400 300\n'
                'november.example.com. IN NS ns1.example.org.\n'
                'txt.november.example.com. IN TXT "hello world"\n')
    try:
        cli_step('cli export file, import', CAROL, 'member', [
            'zone export show %s -c status -c zone_id -f json' % exp,
            'zone export showfile %s -f json' % exp,
            'zone export list -c status --sort-column status -f json',
            'zone import create %s -c status -f json' % zonefile,
        ])
    finally:
        os.unlink(zonefile)
    # The import runs after its answer, and so does the new zone's activation: the real service
    # (SQLite) answers a write racing them 500 "database is locked", so a script waits for both.
    wait_for(lambda: carol.zone_imports.list()['imports'],
             lambda ims: ims and all(i['status'] == 'COMPLETE' for i in ims), 'import COMPLETE')
    wait_for(lambda: [z['status'] for z in carol.zones.list()], lambda st: all(x == 'ACTIVE' for x in st), 'ACTIVE')
    tr = cli_step('cli transfer request', CAROL, 'member', [
        'zone transfer request create --target-project-id %s --description cli %s '
        '-c zone_name -c target_project_id -c key -c id -f json' % (DAVE, j),
        'zone transfer request list -c zone_name -c status -f json',
    ])
    if tr:
        req = tr['out'][-2]
        cli_step('cli transfer accept', DAVE, 'member', [
            'zone transfer accept request --transfer-id %s --key %s -c status -f json' % (req['id'], req['key']),
            'zone transfer accept request --transfer-id %s --key %s -f json' % (req['id'], req['key']),  # again: fails
        ], errors=1)
    wait_for(lambda: [z['status'] for z in carol.zones.list()], lambda st: all(x == 'ACTIVE' for x in st), 'ACTIVE')
    cli_step('cli admin: all projects, sudo, quotas, abandon', ADMIN, 'admin', [
        'zone list --all-projects -c name -c project_id --sort-column name -f json',
        'zone list --sudo-project-id %s -c name --sort-column name -f json' % DAVE,
        'zone create --sudo-project-id %s --email d@example.com oscar.example.com. -c name -c project_id -f json'
        % DAVE,
        'dns quota list --all-projects --project-id %s -f json' % CAROL,
        'dns quota set --all-projects --project-id %s --zones 3 --zone-records 99 -f json' % CAROL,
        'dns quota reset --all-projects --project-id %s' % CAROL,
        'dns quota list --all-projects --project-id %s -f json' % CAROL,
        'zone abandon --sudo-project-id %s mike.example.com.' % CAROL,
        'zone list --all-projects -c name -c project_id --sort-column name -f json',
    ])
    cli_step('cli delete', CAROL, 'member', [
        'zone delete %s -c name -c action -f json' % j,                     # transferred to dave: fails
        'zone list -c name --sort-column name -f json',
        'zone import list -c status --sort-column status -f json',
    ], errors=1)
    cli_admin_resources()


def cli_admin_resources():
    """TLDs, blacklists, TSIG keys and service statuses through the CLI (it has no pool commands).
    TLDs and patterns are global: the step deletes what it made, and runs after every zone flow."""
    pool = '794ccc2c-d751-44fe-b57f-8894c9f5c842'
    made = cli_step('cli tld, blacklist, tsigkey create', ADMIN, 'admin', [
        'tld create --name clitld --description cli -c id -c name -c description -f json',
        'tld create --name clitld -f json',                                   # a duplicate: fails
        'zone blacklist create --pattern "^bad\\." --description cli -c id -c pattern -c description -f json',
        'tsigkey create --name clikey --algorithm hmac-sha256 --secret c2VjcmV0 --scope POOL --resource-id %s '
        '-c id -c name -c algorithm -c scope -c resource_id -f json' % pool,
        'tsigkey create --name clikey2 --algorithm hmac-nope --secret s --scope POOL --resource-id %s -f json' % pool,
    ], errors=2)
    if not made or len(made['out']) < 3:
        return
    tld, blacklist, key = (doc['id'] for doc in made['out'][:3])
    cli_step('cli tld, blacklist, tsigkey list show set', ADMIN, 'admin', [
        'tld list -c name -c description -f json',
        'tld show %s -c name -c description -f json' % tld,
        'tld set --description changed %s -c name -c description -f json' % tld,
        'zone blacklist list -c pattern -c description -f json',
        'zone blacklist show %s -c pattern -f json' % blacklist,
        'zone blacklist set --description changed %s -c pattern -c description -f json' % blacklist,
        'tsigkey list -c name -c algorithm -c scope -f json',
        'tsigkey show %s -c name -c algorithm -c secret -f json' % key,
        'tsigkey set --name clikey3 %s -c name -f json' % key,
        'dns service show 00000000-0000-4000-8000-000000000000 -f json',     # fails
        'zone create --email a@example.com bad.clitld. -c name -f json',    # the admin may: not blacklisted for it
    ], errors=1)
    cli_step('cli the rules on a tenant', CAROL, 'member', [
        'zone create --email c@example.com quebec.clitld. -c name -f json',
        'zone create --email c@example.com romeo.example.net. -f json',      # no such TLD: fails
        'zone create --email c@example.com clitld. -f json',                 # a TLD itself: fails
        'zone create --email c@example.com bad.clitld. -f json',             # blacklisted: fails
        'tld list -f json',                                                  # admin only: fails
        'tsigkey list -f json',                                              # admin only: fails
        'zone blacklist list -f json',                                       # admin only: fails
    ], errors=6)
    cli_step('cli tld, blacklist, tsigkey delete', ADMIN, 'admin', [
        'tsigkey delete %s' % key,
        'zone blacklist delete %s' % blacklist,
        'tld delete %s' % tld,
        'tld delete %s' % tld,                                               # gone: fails
        'tld list -f json',
    ], errors=1)
    services = cli_step('cli dns service list', ADMIN, 'admin', ['dns service list -c service_name -c status -f json'])
    if services:
        for row in services['out'][0]:
            check(row.get('status') == 'UP', 'a listed service is UP')


# ---------------------------------------------------------------- barbican-tempest-plugin's QuotaClient

def quota_flow():
    from barbican_tempest_plugin.services.key_manager.json.quota_client import QuotaClient

    class NoAuthProvider:
        """What tempest's RestClient asks of its auth provider, for a no-auth deployment."""

        def __init__(self, project, roles):
            self.project, self.roles = project, roles

        def auth_request(self, method, url, headers=None, body=None, filters=None):
            headers = dict(headers or {})
            headers.update({'X-Project-Id': self.project, 'X-Roles': self.roles})
            return '%s/%s' % (QUOTA_URL, url), headers, body

        def base_url(self, filters=None):
            return QUOTA_URL

    def client(project, roles):
        return QuotaClient(NoAuthProvider(project, roles), region='RegionOne')

    admin = client(ADMIN, 'key-manager:service-admin')
    member = client(ALICE, 'creator')
    # tempest raises Unauthorized for a 401: what zoneward answers a refusal by policy by default
    refused = 'Unauthorized' if os.environ.get('FLOWS_FORBIDDEN_STATUS') == '401' else 'Forbidden'
    step('q default quotas', lambda: admin.get_default_project_quota())
    step('q list empty', lambda: admin.list_quotas())
    step('q set alice', lambda: admin.create_project_quota(ALICE, project_quotas={'secrets': 10, 'orders': 20,
                                                                                   'containers': -1}))
    step('q set bob', lambda: admin.create_project_quota(BOB, project_quotas={'secrets': 5}))
    step('q show alice', lambda: admin.get_project_quota(ALICE))
    step('q show bob', lambda: admin.get_project_quota(BOB))
    step('q list', lambda: admin.list_quotas())
    step('q list paged', lambda: admin.list_quotas(limit=1, offset=1))
    step('q list paging out of range', lambda: admin.list_quotas(limit=0, offset=-3))
    step('q list paging not numbers', lambda: admin.list_quotas(limit='many', offset='x'))
    step('q own effective quotas', lambda: member.get_default_project_quota())
    step('q list as member', lambda: member.list_quotas(), expect_error=refused)
    step('q set as member', lambda: member.create_project_quota(ALICE, project_quotas={'secrets': 1}),
         expect_error=refused)
    step('q set below -1 (accepted)', lambda: admin.create_project_quota(ALICE, project_quotas={'secrets': -5}))
    step('q set bad value', lambda: admin.create_project_quota(ALICE, project_quotas={'secrets': 'many'}),
         expect_error='BadRequest')
    step('q set bad body', lambda: admin.create_project_quota(ALICE, quotas={'secrets': 1}),
         expect_error='BadRequest')
    step('q delete bob', lambda: admin.delete_project_quota(BOB))
    step('q delete bob again', lambda: admin.delete_project_quota(BOB), expect_error='NotFound')
    step('q show bob after delete', lambda: admin.get_project_quota(BOB), expect_error='NotFound')
    step('q list after delete', lambda: admin.list_quotas())


FLOWS = {'designateclient': designateclient_flow, 'sdk': sdk_flow, 'cli': cli_flow, 'quotas': quota_flow}

if __name__ == '__main__':
    wanted = sys.argv[3].split(',') if len(sys.argv) > 3 else list(FLOWS)
    for name in wanted:
        try:
            FLOWS[name]()
        except Exception:  # noqa: BLE001  (a flow that broke off is a failure to report, not a crash)
            failures.append({'step': name, 'got': traceback.format_exc(limit=5), 'expected': 'flow completes'})
    json.dump({'transcript': transcript, 'failures': failures}, sys.stdout, indent=1)
    sys.stdout.write('\n')
