/** Words of the shared OFD viewer, merged into the translation namespace by `src/app/i18n`. */
export const zhCN = {
  ofdViewer: {
    loading: '正在打开 OFD 文档…',
    failed: 'OFD 文档无法显示',
    failedText: '该文件不是可读取的 OFD 文档（{{reason}}）。',
    page: '第 {{page}} 页',
    signatures: '该文档带有 {{count}} 个电子签章，印章按原位置显示',
    checking: '正在验证',
    verdict: { valid: '签章有效', invalid: '签章无效', unverifiable: '无法验证' },
    signer: '签章者：{{subject}}（证书颁发者：{{issuer}}）',
    signedAt: '签章时间：{{time}}',
    certOutside: '签章时间不在证书有效期内',
    trustNote: '已校验文档完整性和签名值；签章者证书未与本平台信任列表比对。',
    problem: {
      referenceChanged: '签章后文档被修改：{{files}}',
      referenceMissing: '签章保护的内容已缺失：{{files}}',
      noReferences: '签章未保护任何文档内容',
      unknownCheckMethod: '无法识别签章使用的摘要算法',
      signedValueMissing: '签名值缺失',
      signedValueUnreadable: '签名值无法读取',
      dataHashMismatch: '签名值与签章描述不符，签章描述在签名后被改动',
      signatureInvalid: '签名值与签章者证书不符',
      noCertificate: '签名值不含签章者证书，无法确认签章者',
      unsupportedAlgorithm: '签名算法不受支持',
    },
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
    verdict: { valid: 'Valid', invalid: 'Invalid', unverifiable: 'Cannot be checked' },
    signer: 'Signer: {{subject}} (certificate issued by {{issuer}})',
    signedAt: 'signed {{time}}',
    certOutside: 'signed outside the certificate’s validity',
    trustNote:
      'The document’s integrity and the signature values were checked; the signers’ certificates were not matched against this platform’s trust list.',
    problem: {
      referenceChanged: 'The document was changed after signing: {{files}}',
      referenceMissing: 'Parts the seal protects are missing: {{files}}',
      noReferences: 'The seal protects no part of the document',
      unknownCheckMethod: 'The seal’s digest method is not known',
      signedValueMissing: 'The signature value is missing',
      signedValueUnreadable: 'The signature value cannot be read',
      dataHashMismatch:
        'The signature value does not match the seal’s description, which was changed after signing',
      signatureInvalid: 'The signature value does not match the signer’s certificate',
      noCertificate: 'The signature value carries no certificate, so the signer cannot be known',
      unsupportedAlgorithm: 'The signature algorithm is not supported',
    },
    missing: 'Parts the document names are missing; it is shown without them: {{parts}}',
  },
};
