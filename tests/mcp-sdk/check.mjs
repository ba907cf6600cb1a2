// The official MCP TypeScript SDK's SkillsClient (`@modelcontextprotocol/client`, `ext/skills`)
// against `skills serve --stdio`, in both protocol eras. It refuses a whole `skills/list` page when
// one entry breaks a rule of the Skills extension, and verifies every file it reads against the
// entry: size, sha256, and for SKILL.md the frontmatter as its own YAML reader parses it.
//
// Then, live: a skill edited while the server watches is announced (`resources/subscribe` in the
// legacy era, `subscriptions/listen` in 2026-07-28) and its new bytes verify against a new listing.
//
// usage: node check.mjs BINARY ROOT EXPECTED_LISTED UNLISTED LIVE_ROOT
//   EXPECTED_LISTED: how many skills must be listed; UNLISTED: comma-separated names that must
//   not be (and whose files must still be readable as resources); LIVE_ROOT: a folder with one
//   skill, `live`, that the check edits.
import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';

const [binary, root, expected, unlistedArg, liveRoot] = process.argv.slice(2);
const unlisted = unlistedArg ? unlistedArg.split(',') : [];
let failures = 0;
const fail = (message) => {
    failures++;
    console.error(`FAIL  ${message}`);
};

for (const era of ['legacy', 'modern']) {
    const options = era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {};
    const client = new Client({ name: 'skills-sdk-check', version: '1' }, options);
    await client.connect(
        new StdioClientTransport({ command: binary, args: ['serve', '--stdio', '--no-watch', root], stderr: 'ignore' })
    );
    const skills = new SkillsClient(client);
    const version = client.getNegotiatedProtocolVersion();
    let listing;
    try {
        listing = await skills.list();
    } catch (error) {
        fail(`${era}: skills/list refused: ${error.message}`);
        await client.close();
        continue;
    }
    if (listing.skills.length !== Number(expected)) {
        fail(`${era}: ${listing.skills.length} skills listed, ${expected} expected`);
    }
    if (era === 'modern' && (listing.ttlMs === undefined || listing.cacheScope === undefined)) {
        fail(`${era}: no ttlMs/cacheScope on skills/list`);
    }
    let files = 0;
    for (const entry of listing.skills) {
        const name = entry.frontmatter.name;
        if (unlisted.includes(name)) fail(`${era}: ${name} is listed`);
        try {
            const { skill } = await skills.get(entry.uri);
            if (JSON.stringify(skill) !== JSON.stringify(entry)) fail(`${era}: skills/get ${entry.uri} differs from the listing`);
        } catch (error) {
            fail(`${era}: skills/get ${entry.uri}: ${error.message}`);
        }
        const resources = entry.resources === 'dynamic' ? [{ uri: entry.uri }] : entry.resources;
        for (const resource of resources) {
            try {
                const file = await skills.read(entry, resource.uri);
                if (!file.verified) fail(`${era}: ${resource.uri} not verified`);
                files++;
            } catch (error) {
                fail(`${era}: read ${resource.uri}: ${error.message}`);
            }
        }
        try {
            await skills.readDirectory(entry.uri.slice(0, -'/SKILL.md'.length));
        } catch (error) {
            fail(`${era}: resources/directory/read of ${name}: ${error.message}`);
        }
    }
    for (const name of unlisted) {
        try {
            await client.readResource({ uri: `skill://${name}/SKILL.md` });
        } catch (error) {
            fail(`${era}: ${name}'s SKILL.md is not served as a resource: ${error.message}`);
        }
        try {
            await skills.get(`skill://${name}/SKILL.md`);
            fail(`${era}: skills/get of unlisted ${name} answered`);
        } catch (error) {
            if (error.code !== -32602) fail(`${era}: skills/get of unlisted ${name}: ${error.message}`);
        }
    }
    console.log(`ok    ${era} (${version}): ${listing.skills.length} skills listed and ${files} files verified by SkillsClient`);
    await client.close();
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
for (const era of ['legacy', 'modern']) {
    const options = era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {};
    const client = new Client({ name: 'skills-sdk-check', version: '1' }, options);
    const seen = [];
    client.fallbackNotificationHandler = async (notification) => {
        seen.push(`${notification.method} ${notification.params?.uri ?? ''}`.trim());
    };
    await client.connect(new StdioClientTransport({ command: binary, args: ['serve', '--stdio', liveRoot], stderr: 'ignore' }));
    const skills = new SkillsClient(client);
    const uri = 'skill://live/SKILL.md';
    const before = (await skills.list()).skills[0];
    let subscription;
    if (era === 'modern') {
        subscription = await client.listen({ resourcesListChanged: true, resourceSubscriptions: [uri] });
    } else {
        await client.subscribeResource({ uri });
    }
    // The watch is set up once the first snapshot is built: give it a moment.
    await sleep(1000);
    writeFileSync(`${liveRoot}/live/SKILL.md`, `---\nname: live\ndescription: Edited in the ${era} era. Use when live.\n---\n# Live\n`);
    for (let waited = 0; waited < 10000 && !(seen.includes('notifications/resources/list_changed') && seen.includes(`notifications/resources/updated ${uri}`)); waited += 100) {
        await sleep(100);
    }
    if (!seen.includes('notifications/resources/list_changed')) fail(`${era}: no resources/list_changed after an edit (${seen})`);
    if (!seen.includes(`notifications/resources/updated ${uri}`)) fail(`${era}: no resources/updated for ${uri} (${seen})`);
    try {
        await skills.read(before);
        fail(`${era}: the old entry still verifies after the edit`);
    } catch (error) {
        if (error.name !== 'SkillVerificationError') fail(`${era}: reading with the old entry: ${error.message}`);
    }
    const after = (await skills.list()).skills[0];
    try {
        const file = await skills.read(after);
        if (!file.text.includes(`Edited in the ${era} era`)) fail(`${era}: the new listing read old bytes`);
    } catch (error) {
        fail(`${era}: the new listing does not verify: ${error.message}`);
    }
    console.log(`ok    ${era}: an edit is announced (${seen.join(', ')}) and verifies against the new listing`);
    await subscription?.close();
    await client.close();
}

if (failures > 0) {
    console.error(`${failures} SDK checks failed`);
    process.exit(1);
}
