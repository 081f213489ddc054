// The chat's API: a stream's messages (and a recorded video's), posting as the key's user,
// deleting, timeouts and bans, and the room's settings. The rules are the service's, the same as
// for the watch page's socket.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.ts';
import { keysetPage, type CursorCodec } from '../http/pagination.ts';
import { commonErrorResponses, ErrorResponse, IdParams, NoQuery } from '../http/schemas.ts';
import { toIso } from '../shared/clock.ts';
import {
  BanBody,
  BanParams,
  ChatMessage,
  ChatMessagePage,
  ChatMessageParams,
  ChatRestriction,
  ChatSettings,
  DeletedChatMessage,
  LiftedRestriction,
  ListChatMessagesQuery,
  PostChatMessageBody,
  TimeoutBody,
  UpdateChatSettingsBody,
} from './chat.schemas.ts';
import { toChatMessage } from './chat.serializer.ts';
import type { ChatService } from './chat.service.ts';
import type { ChatMessageRow } from './chat.table.ts';

export interface ChatRoutesOptions {
  chat: ChatService;
  cursors: CursorCodec;
}

const refusals = { 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, ...commonErrorResponses };
const position = (row: ChatMessageRow) => ({ sortKey: row.seq, id: row.id });

export const chatRoutes: FastifyPluginAsyncTypebox<ChatRoutesOptions> = async (app, { chat, cursors }) => {
  app.get(
    '/streams/:id/chat/messages',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listStreamChatMessages',
        summary: "List a stream's chat messages, oldest first (deleted ones left out)",
        tags: ['chat'],
        params: IdParams,
        querystring: ListChatMessagesQuery,
        response: { 200: ChatMessagePage, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { limit = 20, cursor } = request.query;
      const id = request.params.id;
      return keysetPage(
        cursors,
        { list: 'chat_messages', limit, cursor, filters: { stream_id: id } },
        (after) => chat.list(id, after, limit + 1),
        position,
        toChatMessage,
      );
    },
  );

  app.get(
    '/videos/:id/chat/messages',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'listVideoChatMessages',
        summary:
          'List the chat of the stream a video was recorded from, oldest first (`offset_ms` places each in the video)',
        tags: ['chat'],
        params: IdParams,
        querystring: ListChatMessagesQuery,
        response: { 200: ChatMessagePage, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => {
      const { limit = 20, cursor } = request.query;
      const id = request.params.id;
      return keysetPage(
        cursors,
        { list: 'video_chat_messages', limit, cursor, filters: { video_id: id } },
        (after) => chat.listForVideo(id, after, limit + 1),
        position,
        toChatMessage,
      );
    },
  );

  app.post(
    '/streams/:id/chat/messages',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'postStreamChatMessage',
        summary: "Post a chat message as the key's user (the chat's limits and moderation apply)",
        tags: ['chat'],
        params: IdParams,
        querystring: NoQuery,
        body: PostChatMessageBody,
        response: { 201: ChatMessage, ...refusals },
      },
    },
    async (request, reply) => {
      const message = await chat.post({
        streamId: request.params.id,
        userId: callerOf(request).userId,
        address: request.ip,
        text: request.body.text,
      });
      return reply.code(201).send(message);
    },
  );

  app.delete(
    '/streams/:id/chat/messages/:message_id',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'deleteStreamChatMessage',
        summary:
          'Delete a chat message (its author, the creator or a moderator); it vanishes for every reader',
        tags: ['chat'],
        params: ChatMessageParams,
        querystring: NoQuery,
        response: { 200: DeletedChatMessage, ...refusals },
      },
    },
    async (request) => {
      await chat.deleteMessage(request.params.id, request.params.message_id, callerOf(request).userId);
      return { deleted: true as const, id: request.params.message_id };
    },
  );

  app.post(
    '/streams/:id/chat/timeouts',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'timeOutChatUser',
        summary: "Time a user out of the channel's chat (creator or moderator)",
        tags: ['chat'],
        params: IdParams,
        querystring: NoQuery,
        body: TimeoutBody,
        response: { 201: ChatRestriction, ...refusals },
      },
    },
    async (request, reply) => {
      const { user_id, duration_seconds, reason } = request.body;
      const { until } = await chat.timeout(
        request.params.id,
        callerOf(request).userId,
        user_id,
        duration_seconds,
        reason ?? null,
      );
      return reply
        .code(201)
        .send({ stream_id: request.params.id, user_id, kind: 'timeout' as const, until: toIso(until) });
    },
  );

  app.post(
    '/streams/:id/chat/bans',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'banChatUser',
        summary: "Ban a user from the channel's chat (creator or moderator)",
        tags: ['chat'],
        params: IdParams,
        querystring: NoQuery,
        body: BanBody,
        response: { 201: ChatRestriction, ...refusals },
      },
    },
    async (request, reply) => {
      const { user_id, reason } = request.body;
      await chat.ban(request.params.id, callerOf(request).userId, user_id, reason ?? null);
      return reply
        .code(201)
        .send({ stream_id: request.params.id, user_id, kind: 'ban' as const, until: null });
    },
  );

  app.delete(
    '/streams/:id/chat/bans/:user_id',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'liftChatRestriction',
        summary: "Lift a user's ban or timeout in the channel's chat (creator or moderator)",
        tags: ['chat'],
        params: BanParams,
        querystring: NoQuery,
        response: { 200: LiftedRestriction, ...refusals },
      },
    },
    async (request) => {
      const lifted = await chat.lift(request.params.id, callerOf(request).userId, request.params.user_id);
      return { lifted, user_id: request.params.user_id };
    },
  );

  app.get(
    '/streams/:id/chat/settings',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getChatSettings',
        summary: "A stream's chat settings",
        tags: ['chat'],
        params: IdParams,
        querystring: NoQuery,
        response: { 200: ChatSettings, 404: ErrorResponse, ...commonErrorResponses },
      },
    },
    async (request) => {
      await chat.stream(request.params.id);
      return chat.settings(request.params.id);
    },
  );

  app.patch(
    '/streams/:id/chat/settings',
    {
      config: { access: 'write' },
      schema: {
        operationId: 'updateChatSettings',
        summary:
          'Switch slow mode, followers-only and the length limit, also while live (creator or moderator)',
        tags: ['chat'],
        params: IdParams,
        querystring: NoQuery,
        body: UpdateChatSettingsBody,
        response: { 200: ChatSettings, ...refusals },
      },
    },
    async (request) => chat.updateSettings(request.params.id, callerOf(request).userId, request.body),
  );
};
