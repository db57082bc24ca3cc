#pragma once
#include "matrix.hpp"
