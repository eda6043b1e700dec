/** The dashboard's navigation: groups and pages, in the order the sidebar shows them. */
export interface NavItem {
  path: string;
  label: string;
}
export interface NavGroup {
  label: string;
  items: NavItem[];
}

export const NAVIGATION: NavGroup[] = [
  {
    label: 'Pagamentos',
    items: [
      { path: '/pagamentos', label: 'Pagamentos' },
      { path: '/disputas', label: 'Disputas' },
      { path: '/assinaturas', label: 'Assinaturas' },
      { path: '/clientes', label: 'Clientes' },
    ],
  },
  {
    label: 'Dinheiro',
    items: [
      { path: '/saldos', label: 'Saldos' },
      { path: '/repasses', label: 'Repasses' },
      { path: '/subcontas', label: 'Subcontas' },
    ],
  },
  {
    label: 'Provedores',
    items: [
      { path: '/provedores', label: 'Contas de provedores' },
      { path: '/roteamento', label: 'Roteamento' },
    ],
  },
  {
    label: 'Relatórios',
    items: [
      { path: '/analises', label: 'Análises' },
      { path: '/conciliacao', label: 'Conciliação' },
      { path: '/integracoes', label: 'Integrações' },
    ],
  },
  {
    label: 'Desenvolvedores',
    items: [
      { path: '/desenvolvedores/chaves', label: 'Chaves de API' },
      { path: '/desenvolvedores/webhooks', label: 'Webhooks' },
      { path: '/desenvolvedores/oauth', label: 'Apps OAuth' },
      { path: '/desenvolvedores/auditoria', label: 'Registro de auditoria' },
    ],
  },
  {
    label: 'Conta',
    items: [{ path: '/conta', label: 'Segurança da conta' }],
  },
];
