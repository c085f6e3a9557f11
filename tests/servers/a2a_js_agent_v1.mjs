// A test peer: an A2A 1.0 agent built with the JS SDK (@a2a-js/sdk 1.x) and express.
//
//   node a2a_js_agent_v1.mjs NODE_MODULES_DIR [--compat]
//
// Listens on 127.0.0.1 at an ephemeral port and prints "READY <port>" on stdout once serving.
// JSON-RPC at /a2a/jsonrpc, HTTP+JSON at /a2a/rest, card at /.well-known/agent-card.json.
// --compat also declares every interface at protocol 0.3 (the SDK's legacyCompat layer).
//
// Skill "steps" (the default): a task that says "thinking…", streams the artifacts step-1..3,
// asks "What is your name?" (input-required) and, once answered, replies and completes. Like every
// JS-SDK agent it re-publishes the whole task first on the follow-up turn.
// Skill "echo": a task that completes at once with an artifact holding the text sent.
import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';

const [modules, ...flags] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), 'noop.js'));
const { AGENT_CARD_PATH, A2A_PROTOCOL_VERSION, Role, TaskState } = require('@a2a-js/sdk');
const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } = require('@a2a-js/sdk/server');
const { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } = require('@a2a-js/sdk/server/express');
const { duplicateInterfacesForLegacy } = require('@a2a-js/sdk/compat/v0_3');
const express = require('express');
const compat = flags.includes('--compat');

const text = (value) => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const agentMessage = (taskId, contextId, value) => ({
  role: Role.ROLE_AGENT, messageId: crypto.randomUUID(), parts: [text(value)], taskId, contextId,
  extensions: [], metadata: {}, referenceTaskIds: [],
});
const now = () => new Date().toISOString();
const userText = (message) =>
  message.parts.filter((p) => p.content?.$case === 'text').map((p) => p.content.value).join('\n').trim();

class StepsExecutor {
  cancelTask = async (taskId, eventBus) => {
    eventBus.publish(AgentEvent.statusUpdate({ taskId, contextId: '', status: { state: TaskState.TASK_STATE_CANCELED, timestamp: now() }, metadata: {} }));
  };

  async execute(ctx, bus) {
    const { taskId, contextId, userMessage } = ctx;
    const task = ctx.task ?? {
      id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: now() },
      artifacts: [], history: [userMessage], metadata: {},
    };
    bus.publish(AgentEvent.task(task)); // the whole task first, on every turn
    const status = (state, value) => bus.publish(AgentEvent.statusUpdate({
      taskId, contextId, status: { state, timestamp: now(), message: value ? agentMessage(taskId, contextId, value) : undefined }, metadata: {},
    }));
    const artifact = (artifactId, value) => bus.publish(AgentEvent.artifactUpdate({
      taskId, contextId, artifact: { artifactId, name: artifactId, description: '', parts: [text(value)], metadata: undefined, extensions: [] },
      append: false, lastChunk: true, metadata: undefined,
    }));
    const skill = userMessage.metadata?.skill_id;
    if (skill === 'echo') {
      status(TaskState.TASK_STATE_WORKING);
      artifact('echo', userText(userMessage));
      status(TaskState.TASK_STATE_COMPLETED);
      return;
    }
    if (ctx.task?.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      status(TaskState.TASK_STATE_WORKING);
      artifact('reply', `Nice to meet you, ${userText(userMessage)}.`);
      status(TaskState.TASK_STATE_COMPLETED, 'done');
      return;
    }
    status(TaskState.TASK_STATE_WORKING, 'thinking…');
    for (const step of [1, 2, 3]) {
      artifact(`step-${step}`, `step ${step}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    status(TaskState.TASK_STATE_INPUT_REQUIRED, 'What is your name?');
  }
}

const app = express();
const server = http.createServer(app);
server.listen(0, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const interfaces = [
    { url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
    { url: `${base}/a2a/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: A2A_PROTOCOL_VERSION },
  ];
  const card = {
    name: compat ? 'JS Steps Agent (1.0 + 0.3)' : 'JS Steps Agent',
    description: 'Streams three steps, asks for your name, then completes.',
    supportedInterfaces: compat ? duplicateInterfacesForLegacy(interfaces, ['JSONRPC', 'HTTP+JSON']) : interfaces,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {}, securityRequirements: [],
    defaultInputModes: ['text'], defaultOutputModes: ['text'],
    skills: [
      { id: 'steps', name: 'Steps', description: 'Three steps and a question', tags: ['demo'], examples: ['hi'], inputModes: [], outputModes: [], securityRequirements: [] },
      { id: 'echo', name: 'Echo', description: 'Returns the text sent', tags: ['demo'], examples: ['hello'], inputModes: [], outputModes: [], securityRequirements: [] },
    ],
    documentationUrl: '', signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new StepsExecutor());
  const legacyCompat = { enabled: compat };
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler, legacyCompat }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  app.use('/a2a/rest', restHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  process.stdout.write(`READY ${server.address().port}\n`);
});
process.stdin.on('end', () => process.exit(0)); // the test closes stdin to stop the agent
process.stdin.resume();
