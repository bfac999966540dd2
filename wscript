# SPDX-License-Identifier: GPL-2.0-only
#
# Build of edge-llm in a waf-based ns-3 tree (ns-3 <= 3.35). The file lists are read from
# CMakeLists.txt, so that they are kept in one place. In ns-3.35 it configures and drives the
# build, but the module's sources need APIs of ns-3.36 and later (Callbacks and events made
# from lambdas, MakeCallback with bound arguments, 3.37's LTE measurement and handover API):
# see the README's build table.

import re


def _cmake_list(bld, name):
    # waf runs a wscript without __file__; bld.path is this wscript's directory.
    text = bld.path.find_node('CMakeLists.txt').read()
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
    module.source = _cmake_list(bld, 'EDGE_LLM_SOURCES')
    module.use.append('GLPK')
    # The ns-3 release as major * 100 + minor, for the sources' version checks.
    release = re.match(r'(\d+)\.(\d+)', bld.srcnode.find_node('VERSION').read().strip())
    if release is None:
        bld.fatal('edge-llm: cannot read the ns-3 release from VERSION')
    defines = ['EDGE_LLM_NS3_VERSION=%d' % (int(release.group(1)) * 100 + int(release.group(2)))]
    module.defines = defines

    module_test = bld.create_ns3_module_test_library('edge-llm')
    module_test.source = _cmake_list(bld, 'EDGE_LLM_TEST_SOURCES')
    module_test.defines = defines

    headers = bld(features='ns3header')
    headers.module = 'edge-llm'
    headers.source = _cmake_list(bld, 'EDGE_LLM_HEADERS')

    if bld.env.ENABLE_EXAMPLES:
        bld.recurse('examples')
