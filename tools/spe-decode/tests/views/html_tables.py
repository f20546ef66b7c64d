#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Print the rows of the tables of an HTML page (as a browser's DOM dump
gives it): one line per row, "TABLE-ID<TAB>cell<TAB>cell...", header rows
left out.  Also "BODY<TAB>data-ready value" and "HREF/SRC" lines for any
attribute that would load something from outside the page.

usage: html_tables.py page.html"""
import sys
from html.parser import HTMLParser


class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.table = []
        self.row = None
        self.cell = None
        self.in_head = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ('src', 'href'):
            v = a.get(k)
            if v is not None and not v.startswith('#'):
                print('EXTERNAL\t%s=%s' % (k, v))
        if tag == 'link':
            print('EXTERNAL\tlink')
        if tag == 'body':
            print('BODY\t%s' % a.get('data-ready', ''))
        if tag == 'table':
            self.table.append(a.get('id') or a.get('class') or '?')
        elif tag == 'thead':
            self.in_head = True
        elif tag == 'tr':
            self.row = []
        elif tag in ('td', 'th'):
            self.cell = ''

    def handle_endtag(self, tag):
        if tag == 'table' and self.table:
            self.table.pop()
        elif tag == 'thead':
            self.in_head = False
        elif tag in ('td', 'th') and self.row is not None and self.cell is not None:
            self.row.append(' '.join(self.cell.split()))
            self.cell = None
        elif tag == 'tr' and self.row is not None:
            if not self.in_head and self.table:
                print('\t'.join([self.table[-1]] + self.row))
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


P().feed(open(sys.argv[1], encoding='utf-8').read())
