import { BulbOutlined, LinkOutlined } from '@ant-design/icons';
import { Alert, Card, Menu, Select, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useIsMobile } from '../../../hooks/use-is-mobile';
import { normaliseLanguage } from '../../../lib/language';
import { GUIDE_EN } from '../content/guide-en';
import { GUIDE_ZH } from '../content/guide-zh';
import { chapterOf, shotUrl, type GuideBlock, type GuideChapter, type GuideLanguage } from '../model/guide';
import './help.css';

const GUIDES: Record<GuideLanguage, GuideChapter[]> = { 'zh-CN': GUIDE_ZH, en: GUIDE_EN };

/**
 * The user guide ("帮助文档"): getting started, real-name, seals, signing, verifying, UKeys and the FAQ,
 * in the page's language, with the app's own screenshots. A chapter is addressed as `/help?chapter=…`.
 * On a phone the chapters are chosen from a list above the text.
 */
export function HelpPage() {
  const { i18n, t } = useTranslation();
  const lang = normaliseLanguage(i18n.language) as GuideLanguage;
  const guide = GUIDES[lang];
  const [params, setParams] = useSearchParams();
  const id = chapterOf(params.get('chapter'));
  const chapter = guide.find((c) => c.id === id) ?? guide[0]!;
  const mobile = useIsMobile();
  const choose = (next: string) => {
    setParams({ chapter: next }, { replace: false });
    window.scrollTo({ top: 0 });
  };

  return (
    <div className="os-help" data-testid="help-page" data-chapter={chapter.id}>
      {mobile ? (
        <Select
          className="os-help-select"
          value={chapter.id}
          onChange={choose}
          options={guide.map((c) => ({ value: c.id, label: c.title }))}
          aria-label={t('help.chapters')}
          data-testid="help-chapter-select"
        />
      ) : (
        <Card className="os-help-nav" size="small" title={t('help.chapters')}>
          <Menu
            mode="inline"
            selectedKeys={[chapter.id]}
            onClick={({ key }) => choose(key)}
            items={guide.map((c) => ({
              key: c.id,
              label: <span data-testid={`help-nav-${c.id}`}>{c.title}</span>,
            }))}
          />
        </Card>
      )}
      <article className="os-help-body" data-testid="help-chapter">
        <Typography.Title level={2}>{chapter.title}</Typography.Title>
        <Typography.Paragraph type="secondary">{chapter.summary}</Typography.Paragraph>
        {chapter.blocks.map((block, i) => (
          <Block key={i} block={block} lang={lang} />
        ))}
      </article>
    </div>
  );
}

function Block({ block, lang }: { block: GuideBlock; lang: GuideLanguage }) {
  if ('p' in block) return <Typography.Paragraph>{block.p}</Typography.Paragraph>;
  if ('steps' in block)
    return (
      <Steps
        className="os-help-steps"
        orientation="vertical"
        size="small"
        current={-1}
        items={block.steps.map((s) => ({ title: s, status: 'process' as const }))}
      />
    );
  if ('tip' in block)
    return <Alert className="os-help-tip" type="info" showIcon icon={<BulbOutlined />} title={block.tip} />;
  if ('shot' in block) return <Shot url={shotUrl(lang, block.shot)} caption={block.caption} />;
  return (
    <Typography.Paragraph>
      <a href={block.link.href} target="_blank" rel="noreferrer" data-testid="help-link">
        <LinkOutlined /> {block.link.text}
      </a>
    </Typography.Paragraph>
  );
}

/** A screenshot with its caption; one that cannot be loaded leaves only the caption. */
function Shot({ url, caption }: { url: string; caption: string }) {
  const [missing, setMissing] = useState(false);
  return (
    <figure className="os-help-shot" data-testid="help-shot">
      {missing ? null : <img src={url} alt={caption} loading="lazy" onError={() => setMissing(true)} />}
      <figcaption>{caption}</figcaption>
    </figure>
  );
}
