# SPDX-License-Identifier: GPL-2.0-only
#
# Build of edge-llm in a waf-based ns-3 tree (ns-3 <= 3.35). The file lists are read from
# CMakeLists.txt, so that they are kept in one place.

import os
import re


def _cmake_list(name):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'CMakeLists.txt')
    with open(path) as f:
        text = f.read()
    match = re.search(r'set\(' + name + r'\s+([^)]*)\)', text)
    if match is None:
        raise RuntimeError('edge-llm: %s not found in CMakeLists.txt' % name)
    return match.group(1).split()


def configure(conf):
    # GLPK solves ImpactHO's clairvoyant bound; Boost.Math's root finders are header-only.
    conf.check_cxx(header_name='glpk.h', lib='glpk', uselib_store='GLPK', mandatory=True,
                   msg='Checking for GLPK (apt-get install libglpk-dev)')
    conf.check_cxx(header_name='boost/math/tools/roots.hpp', mandatory=True,
                   msg='Checking for Boost.Math (apt-get install libboost-dev)')


def build(bld):
    module = bld.create_ns3_module(
        'edge-llm',
        ['core', 'network', 'internet', 'traffic-control', 'mobility', 'applications',
         'point-to-point', 'propagation', 'spectrum', 'lte'])
    module.source = _cmake_list('EDGE_LLM_SOURCES')
    module.use.append('GLPK')

    module_test = bld.create_ns3_module_test_library('edge-llm')
    module_test.source = _cmake_list('EDGE_LLM_TEST_SOURCES')

    headers = bld(features='ns3header')
    headers.module = 'edge-llm'
    headers.source = _cmake_list('EDGE_LLM_HEADERS')

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
