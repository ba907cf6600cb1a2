// The official MCP TypeScript SDK's SkillsClient (`@modelcontextprotocol/client`, `ext/skills`)
// against `skills serve --stdio`, in both protocol eras. It refuses a whole `skills/list` page when
// one entry breaks a rule of the Skills extension, and verifies every file it reads against the
// entry: size, sha256, and for SKILL.md the frontmatter as its own YAML reader parses it.
//
// usage: node check.mjs BINARY ROOT EXPECTED_LISTED UNLISTED
//   EXPECTED_LISTED: how many skills must be listed; UNLISTED: comma-separated names that must
//   not be (and whose files must still be readable as resources).
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';

const [binary, root, expected, unlistedArg] = process.argv.slice(2);
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
if (failures > 0) {
    console.error(`${failures} SDK checks failed`);
    process.exit(1);
}
