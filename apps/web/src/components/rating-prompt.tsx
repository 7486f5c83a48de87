import { CloseOutlined, SmileOutlined } from '@ant-design/icons';
import { contracts } from '@openseal/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Rate, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPost } from '../lib/api-client';

export type RatingScene = (typeof contracts.RATING_SCENES)[number];

/**
 * "How was it?" after signing, verifying or receiving a seal (spec section 1, feedback ratings; POST
 * /v1/ces/showStatus and showResult). It sits under the result, never in the way: shown once per act,
 * closed with one tap, and a failed call only hides it.
 */
export function RatingPrompt({ scene, bizId }: { scene: RatingScene; bizId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = ['ces', scene, bizId];
  const status = useQuery({
    queryKey: key,
    queryFn: () => apiPost<{ show: boolean }>('/v1/ces/showStatus', { scene, bizId }),
    staleTime: Infinity,
    retry: false,
  });
  const [score, setScore] = useState(0);
  const [comment, setComment] = useState('');
  const [sending, setSending] = useState(false);
  const [thanked, setThanked] = useState(false);

  const answer = async (value: number | null) => {
    setSending(true);
    try {
      await apiPost('/v1/ces/showResult', { scene, bizId, score: value, comment: comment || undefined });
      setThanked(value !== null);
    } catch {
      // A rating is a courtesy: whatever went wrong, the prompt goes away.
    } finally {
      setSending(false);
      queryClient.setQueryData(key, { show: false });
    }
  };

  if (thanked)
    return (
      <div className="os-rating os-rating--done" data-testid="rating-thanks">
        <SmileOutlined /> {t('rating.thanks')}
      </div>
    );
  if (!status.data?.show) return null;
  return (
    <section className="os-rating" data-testid="rating-prompt" data-scene={scene}>
      <div className="os-rating__head">
        <strong>{t(`rating.title.${scene}`)}</strong>
        <Button
          type="text"
          icon={<CloseOutlined />}
          aria-label={t('rating.close')}
          onClick={() => void answer(null)}
          disabled={sending}
          data-testid="rating-close"
        />
      </div>
      <Rate value={score} onChange={setScore} className="os-rating__stars" data-testid="rating-stars" />
      {score > 0 ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Input.TextArea
            rows={2}
            maxLength={contracts.RATING_COMMENT_MAX}
            showCount
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            placeholder={t('rating.comment')}
            data-testid="rating-comment"
          />
          <Button
            type="primary"
            block
            loading={sending}
            onClick={() => void answer(score)}
            data-testid="rating-submit"
          >
            {t('rating.submit')}
          </Button>
        </Space>
      ) : null}
    </section>
  );
}
