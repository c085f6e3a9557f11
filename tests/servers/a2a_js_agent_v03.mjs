// A test peer: an A2A 0.3 agent built with the JS SDK (@a2a-js/sdk 0.3.x) and express.
//
//   node a2a_js_agent_v03.mjs NODE_MODULES_DIR
//
// Listens on 127.0.0.1 at an ephemeral port and prints "READY <port>" on stdout once serving.
// JSON-RPC at /a2a/jsonrpc, HTTP+JSON at /a2a/rest, card (protocolVersion 0.3.0) at
// /.well-known/agent-card.json. Same behaviour as a2a_js_agent_v1.mjs, in the 0.3 shapes.
import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';

const [modules] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), 'noop.js'));
const { AGENT_CARD_PATH } = require('@a2a-js/sdk');
const { DefaultRequestHandler, InMemoryTaskStore } = require('@a2a-js/sdk/server');
const { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } = require('@a2a-js/sdk/server/express');
const express = require('express');

const now = () => new Date().toISOString();
const agentMessage = (taskId, contextId, text) => ({
  kind: 'message', role: 'agent', messageId: crypto.randomUUID(), parts: [{ kind: 'text', text }], taskId, contextId,
});
const userText = (message) =>
  message.parts.filter((p) => p.kind === 'text').map((p) => p.text).join('\n').trim();

class StepsExecutor {
  cancelTask = async (taskId, eventBus) => {
    eventBus.publish({ kind: 'status-update', taskId, contextId: '', status: { state: 'canceled', timestamp: now() }, final: true });
    eventBus.finished();
  };

  async execute(ctx, bus) {
    const { taskId, contextId, userMessage } = ctx;
    const task = ctx.task ?? {
      kind: 'task', id: taskId, contextId, status: { state: 'submitted', timestamp: now() }, artifacts: [], history: [userMessage],
    };
    bus.publish(task); // the whole task first, on every turn
    const status = (state, text, final = false) => bus.publish({
      kind: 'status-update', taskId, contextId, final,
      status: { state, timestamp: now(), message: text ? agentMessage(taskId, contextId, text) : undefined },
    });
    const artifact = (artifactId, text) => bus.publish({
      kind: 'artifact-update', taskId, contextId, append: false, lastChunk: true,
      artifact: { artifactId, name: artifactId, parts: [{ kind: 'text', text }] },
    });
    if (userMessage.metadata?.skill_id === 'echo') {
      status('working');
      artifact('echo', userText(userMessage));
      status('completed', undefined, true);
    } else if (ctx.task?.status?.state === 'input-required') {
      status('working');
      artifact('reply', `Nice to meet you, ${userText(userMessage)}.`);
      status('completed', 'done', true);
    } else {
      status('working', 'thinking…');
      for (const step of [1, 2, 3]) {
        artifact(`step-${step}`, `step ${step}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      status('input-required', 'What is your name?', true);
    }
    bus.finished();
  }
}

const app = express();
const server = http.createServer(app);
server.listen(0, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: 'JS Steps Agent 0.3',
    description: 'Streams three steps, asks for your name, then completes.',
    protocolVersion: '0.3.0',
    version: '0.3.0',
    url: `${base}/a2a/jsonrpc`,
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: `${base}/a2a/jsonrpc`, transport: 'JSONRPC' },
      { url: `${base}/a2a/rest`, transport: 'HTTP+JSON' },
    ],
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text'], defaultOutputModes: ['text'],
    skills: [
      { id: 'steps', name: 'Steps', description: 'Three steps and a question', tags: ['demo'], examples: ['hi'] },
      { id: 'echo', name: 'Echo', description: 'Returns the text sent', tags: ['demo'], examples: ['hello'] },
    ],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new StepsExecutor());
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  app.use('/a2a/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  process.stdout.write(`READY ${server.address().port}\n`);
});
process.stdin.on('end', () => process.exit(0)); // the test closes stdin to stop the agent
process.stdin.resume();
