#include "test-util.h"
