import { Role, type SendMessageRequest } from '@a2a-js/sdk';

export interface UserTurn {
  readonly messageId: string;
  readonly text: string;
  readonly taskId?: string | undefined;
  readonly contextId?: string | undefined;
}

/**
 * The request for one user turn: a text message, sent without blocking (`returnImmediately`)
 * so the task's id is known at once, to poll and, if the call is aborted, to cancel.
 */
export function userMessageRequest(turn: UserTurn): SendMessageRequest {
  return {
    tenant: '',
    message: {
      messageId: turn.messageId,
      contextId: turn.contextId ?? '',
      taskId: turn.taskId ?? '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text', value: turn.text },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately: true,
    },
    metadata: undefined,
  };
}
