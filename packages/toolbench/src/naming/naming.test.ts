import { describe, expect, it } from 'vitest';
import { splitToolBenchFunctionName, toolBenchFunctionName } from './function-name.js';
import { resolveToolBenchAction } from './resolve-action.js';
import {
  renameReservedWord,
  standardizeToolBenchCategory,
  standardizeToolBenchName,
} from './standardize.js';

describe('standardizeToolBenchName', () => {
  it.each([
    ['Keyword Analysis', 'keyword_analysis'],
    ['Kick.com API | Kick API', 'kick_com_api_kick_api'],
    ['Números a Letras', 'n_meros_a_letras'],
    ['Get Chat User (like user from chat)', 'get_chat_user_like_user_from_chat'],
    ['/v4/sports/{sport}/odds', 'v4_sports_sport_odds'],
    [
      '/tracking/correo_argentino/result_task/:task_id',
      'tracking_correo_argentino_result_task_task_id',
    ],
    ['2FA Auth', 'get_2fa_auth'],
    ['__a__b__', 'a_b'],
    ['x^y', 'x^y'],
    ['天气 API', '天气_api'],
    ['😀 smile', 'smile'],
    ['', ''],
    ['___', ''],
  ])('%j -> %j', (input, expected) => {
    expect(standardizeToolBenchName(input)).toBe(expected);
  });

  it('renames the reserved words only', () => {
    expect(
      ['from', 'class', 'return', 'false', 'true', 'id', 'and'].map(renameReservedWord),
    ).toEqual(['is_from', 'is_class', 'is_return', 'is_false', 'is_true', 'is_id', 'is_and']);
    expect(renameReservedWord('ids')).toBe('ids');
    expect(renameReservedWord('ID')).toBe('ID');
  });

  it('turns categories into directory names', () => {
    expect(standardizeToolBenchCategory('Business Software')).toBe('Business_Software');
    expect(standardizeToolBenchCategory('Data, Finance/Tools')).toBe('Data_Finance_Tools');
    expect(standardizeToolBenchCategory('a _b')).toBe('a_b');
  });
});

describe('toolBenchFunctionName', () => {
  it('joins <api>_for_<tool> and keeps the last 64 characters', () => {
    expect(
      toolBenchFunctionName(
        'IEX Regulation SHO Threshold Securities List',
        'investors_exchange_iex_trading',
      ),
    ).toBe('sho_threshold_securities_list_for_investors_exchange_iex_trading');
    expect(toolBenchFunctionName('/v4/sports/{sport}/odds', 'live_sports_odds')).toBe(
      'v4_sports_sport_odds_for_live_sports_odds',
    );
    expect(toolBenchFunctionName('id', 'transitaires')).toBe('is_id_for_transitaires');
    expect(toolBenchFunctionName('a'.repeat(100), 'tool')).toHaveLength(64);
  });

  it('splits at the last _for_', () => {
    expect(splitToolBenchFunctionName('transitaire_for_transitaires')).toEqual({
      api: 'transitaire',
      tool: 'transitaires',
    });
    expect(splitToolBenchFunctionName('search_for_food_for_thought')).toEqual({
      api: 'search_for_food',
      tool: 'thought',
    });
    expect(splitToolBenchFunctionName('Finish')).toBeUndefined();
  });
});

describe('resolveToolBenchAction', () => {
  const names = [
    'songkick_concert_for_theclique',
    'songkick_artist_for_theclique',
    'al_path_for_n_meros_a_letras',
  ];

  it('routes an empty action to the first function, as the reference does', () => {
    expect(resolveToolBenchAction('', names)).toMatchObject({
      name: names[0],
      match: 'suffix',
      ambiguous: true,
    });
  });

  it('resolves a bare tool name to its first API and reports the ambiguity', () => {
    const resolved = resolveToolBenchAction('theclique', names);
    expect(resolved).toEqual({
      name: 'songkick_concert_for_theclique',
      match: 'suffix',
      candidates: ['songkick_concert_for_theclique', 'songkick_artist_for_theclique'],
      ambiguous: true,
    });
  });

  it('resolves a shortened name and an exact one without ambiguity', () => {
    expect(resolveToolBenchAction('path_for_n_meros_a_letras', names)).toMatchObject({
      name: 'al_path_for_n_meros_a_letras',
      match: 'suffix',
      ambiguous: false,
    });
    expect(resolveToolBenchAction('songkick_artist_for_theclique', names)).toMatchObject({
      match: 'exact',
      ambiguous: false,
    });
  });

  it('does not trim: " Finish" or a padded name matches nothing', () => {
    expect(resolveToolBenchAction(' songkick_artist_for_theclique', names)).toBeUndefined();
    expect(resolveToolBenchAction('unknown', names)).toBeUndefined();
  });

  it('prefers an exact match in tolerant mode where the reference takes the first suffix match', () => {
    const list = ['get_for_tool', 'et_for_tool'];
    expect(resolveToolBenchAction('et_for_tool', list)?.name).toBe('get_for_tool');
    expect(resolveToolBenchAction('et_for_tool', list, { mode: 'tolerant' })).toMatchObject({
      name: 'et_for_tool',
      match: 'exact',
      ambiguous: true,
    });
  });
});
