# SPDX-License-Identifier: GPL-2.0-only
# Test fixture: claims to be ns-3.43.
set(PACKAGE_VERSION "3.43")
set(PACKAGE_VERSION_COMPATIBLE TRUE)
if(PACKAGE_FIND_VERSION STREQUAL "3.43")
  set(PACKAGE_VERSION_EXACT TRUE)
endif()
