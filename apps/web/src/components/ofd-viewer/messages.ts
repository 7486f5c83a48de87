/** Words of the shared OFD viewer, merged into the translation namespace by `src/app/i18n`. */
export const zhCN = {
  ofdViewer: {
    loading: '正在打开 OFD 文档…',
    failed: 'OFD 文档无法显示',
    failedText: '该文件不是可读取的 OFD 文档（{{reason}}）。',
    page: '第 {{page}} 页',
    signatures: '该文档带有 {{count}} 个电子签章，印章按原位置显示',
    checking: '正在验证',
    verdict: { valid: '签章有效', invalid: '签章无效', indeterminate: '签章者未确认' },
    unconfirmed: '签章者未经本平台确认（证书颁发者：{{issuer}}），请勿仅凭印章名称信任该签章',
    signer: '签章者：{{subject}}（证书颁发者：{{issuer}}）',
    signedAt: '签章时间：{{time}}',
    trustNote:
      '已校验文档完整性、签名值，并将签章者证书与本平台信任锚（平台根证书及经运营方认可的其他平台根证书）比对。',
    trustUnavailable: '未能取得本平台信任锚，签章者均无法确认。',
    missing: '文档引用的部分内容缺失，已按现有内容显示：{{parts}}',
  },
};

export const en: typeof zhCN = {
  ofdViewer: {
    loading: 'Opening the OFD document…',
    failed: 'The OFD document cannot be shown',
    failedText: 'The file is not a readable OFD document ({{reason}}).',
    page: 'Page {{page}}',
    signatures: 'The document carries {{count}} electronic seal(s), drawn where they sit',
    checking: 'Checking',
    verdict: { valid: 'Valid', invalid: 'Invalid', indeterminate: 'Signer not confirmed' },
    unconfirmed:
      'Signer not confirmed by this platform (certificate issued by {{issuer}}): do not trust this seal for its name alone',
    signer: 'Signer: {{subject}} (certificate issued by {{issuer}})',
    signedAt: 'signed {{time}}',
    trustNote:
      'The document’s integrity and the signature values were checked, and the signers’ certificates against this platform’s trust anchors (its root and the roots of other platforms its operators recognise).',
    trustUnavailable: 'This platform’s trust anchors could not be fetched, so no signer can be confirmed.',
    missing: 'Parts the document names are missing; it is shown without them: {{parts}}',
  },
};
