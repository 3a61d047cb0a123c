// simt's <glm/glm.hpp> (and <glm/gtc/type_ptr.hpp>, which includes it): the float vectors and
// square matrices of g-truc/glm 0.9.9+, laid out and computed as glm lays them out and computes
// them. A header simt reads in place of the real one: no directives.
//
// glm declares `template <length_t L, typename T, qualifier Q = defaultp> struct vec;` and
// `template <length_t C, length_t R, typename T, qualifier Q = defaultp> struct mat;`
// (fwd.hpp); simt has the `float` instances with the default qualifier, as explicit
// specialisations of two-parameter (vec) and three-parameter (mat) templates: `glm::vec<3, float>`,
// `glm::vec3`, `glm::mat<3, 3, float>` and `glm::mat3` name them.
// type_vec3.hpp: the members are x, y, z (glm's r/g/b and s/t/p aliases are unions, left out);
// operator[] returns component i. type_mat3x3.hpp: a matrix is `col_type value[3]`, its columns:
// m[c][r] is column c, row r (column-major), mat3(x0, y0, z0, x1, ...) fills column by column.
// The default constructors leave the components unset (glm's defaulted constructor without
// GLM_FORCE_CTOR_INIT); an unset component read is reported as any uninitialised read is.
namespace glm {

typedef int length_t;

template <length_t L, typename T>
struct vec;

template <length_t C, length_t R, typename T>
struct mat;

template <>
struct vec<2, float> {
    float x;
    float y;
    __host__ __device__ vec() {}
    __host__ __device__ explicit vec(float s) : x(s), y(s) {}
    __host__ __device__ vec(float a, float b) : x(a), y(b) {}
    __host__ __device__ static length_t length() { return 2; }
    __host__ __device__ float& operator[](length_t i) { return i == 0 ? x : y; }
    __host__ __device__ const float& operator[](length_t i) const { return i == 0 ? x : y; }
    __host__ __device__ void operator+=(float s) { x = x + s; y = y + s; }
    __host__ __device__ void operator+=(const vec<2, float>& v) { x = x + v.x; y = y + v.y; }
    __host__ __device__ void operator-=(float s) { x = x - s; y = y - s; }
    __host__ __device__ void operator-=(const vec<2, float>& v) { x = x - v.x; y = y - v.y; }
    __host__ __device__ void operator*=(float s) { x = x * s; y = y * s; }
    __host__ __device__ void operator*=(const vec<2, float>& v) { x = x * v.x; y = y * v.y; }
    __host__ __device__ void operator/=(float s) { x = x / s; y = y / s; }
    __host__ __device__ void operator/=(const vec<2, float>& v) { x = x / v.x; y = y / v.y; }
};

template <>
struct vec<3, float> {
    float x;
    float y;
    float z;
    __host__ __device__ vec() {}
    __host__ __device__ explicit vec(float s) : x(s), y(s), z(s) {}
    __host__ __device__ vec(float a, float b, float c) : x(a), y(b), z(c) {}
    __host__ __device__ vec(const vec<2, float>& a, float b) : x(a.x), y(a.y), z(b) {}
    __host__ __device__ static length_t length() { return 3; }
    __host__ __device__ float& operator[](length_t i) { return i == 0 ? x : (i == 1 ? y : z); }
    __host__ __device__ const float& operator[](length_t i) const {
        return i == 0 ? x : (i == 1 ? y : z);
    }
    __host__ __device__ void operator+=(float s) { x = x + s; y = y + s; z = z + s; }
    __host__ __device__ void operator+=(const vec<3, float>& v) {
        x = x + v.x; y = y + v.y; z = z + v.z;
    }
    __host__ __device__ void operator-=(float s) { x = x - s; y = y - s; z = z - s; }
    __host__ __device__ void operator-=(const vec<3, float>& v) {
        x = x - v.x; y = y - v.y; z = z - v.z;
    }
    __host__ __device__ void operator*=(float s) { x = x * s; y = y * s; z = z * s; }
    __host__ __device__ void operator*=(const vec<3, float>& v) {
        x = x * v.x; y = y * v.y; z = z * v.z;
    }
    __host__ __device__ void operator/=(float s) { x = x / s; y = y / s; z = z / s; }
    __host__ __device__ void operator/=(const vec<3, float>& v) {
        x = x / v.x; y = y / v.y; z = z / v.z;
    }
};

template <>
struct vec<4, float> {
    float x;
    float y;
    float z;
    float w;
    __host__ __device__ vec() {}
    __host__ __device__ explicit vec(float s) : x(s), y(s), z(s), w(s) {}
    __host__ __device__ vec(float a, float b, float c, float d) : x(a), y(b), z(c), w(d) {}
    __host__ __device__ vec(const vec<3, float>& a, float d) : x(a.x), y(a.y), z(a.z), w(d) {}
    __host__ __device__ static length_t length() { return 4; }
    __host__ __device__ float& operator[](length_t i) {
        return i == 0 ? x : (i == 1 ? y : (i == 2 ? z : w));
    }
    __host__ __device__ const float& operator[](length_t i) const {
        return i == 0 ? x : (i == 1 ? y : (i == 2 ? z : w));
    }
    __host__ __device__ void operator+=(float s) { x = x + s; y = y + s; z = z + s; w = w + s; }
    __host__ __device__ void operator+=(const vec<4, float>& v) {
        x = x + v.x; y = y + v.y; z = z + v.z; w = w + v.w;
    }
    __host__ __device__ void operator-=(float s) { x = x - s; y = y - s; z = z - s; w = w - s; }
    __host__ __device__ void operator-=(const vec<4, float>& v) {
        x = x - v.x; y = y - v.y; z = z - v.z; w = w - v.w;
    }
    __host__ __device__ void operator*=(float s) { x = x * s; y = y * s; z = z * s; w = w * s; }
    __host__ __device__ void operator*=(const vec<4, float>& v) {
        x = x * v.x; y = y * v.y; z = z * v.z; w = w * v.w;
    }
    __host__ __device__ void operator/=(float s) { x = x / s; y = y / s; z = z / s; w = w / s; }
    __host__ __device__ void operator/=(const vec<4, float>& v) {
        x = x / v.x; y = y / v.y; z = z / v.z; w = w / v.w;
    }
};

typedef vec<2, float> vec2;
typedef vec<3, float> vec3;
typedef vec<4, float> vec4;

// type_vec2.inl, type_vec3.inl, type_vec4.inl: the operators, component by component.
__host__ __device__ vec2 operator-(const vec2& v) { return vec2(-v.x, -v.y); }
__host__ __device__ vec2 operator+(const vec2& a, const vec2& b) { return vec2(a.x + b.x, a.y + b.y); }
__host__ __device__ vec2 operator+(const vec2& a, float s) { return vec2(a.x + s, a.y + s); }
__host__ __device__ vec2 operator+(float s, const vec2& b) { return vec2(s + b.x, s + b.y); }
__host__ __device__ vec2 operator-(const vec2& a, const vec2& b) { return vec2(a.x - b.x, a.y - b.y); }
__host__ __device__ vec2 operator-(const vec2& a, float s) { return vec2(a.x - s, a.y - s); }
__host__ __device__ vec2 operator-(float s, const vec2& b) { return vec2(s - b.x, s - b.y); }
__host__ __device__ vec2 operator*(const vec2& a, const vec2& b) { return vec2(a.x * b.x, a.y * b.y); }
__host__ __device__ vec2 operator*(const vec2& a, float s) { return vec2(a.x * s, a.y * s); }
__host__ __device__ vec2 operator*(float s, const vec2& b) { return vec2(s * b.x, s * b.y); }
__host__ __device__ vec2 operator/(const vec2& a, const vec2& b) { return vec2(a.x / b.x, a.y / b.y); }
__host__ __device__ vec2 operator/(const vec2& a, float s) { return vec2(a.x / s, a.y / s); }
__host__ __device__ vec2 operator/(float s, const vec2& b) { return vec2(s / b.x, s / b.y); }

__host__ __device__ vec3 operator-(const vec3& v) { return vec3(-v.x, -v.y, -v.z); }
__host__ __device__ vec3 operator+(const vec3& a, const vec3& b) {
    return vec3(a.x + b.x, a.y + b.y, a.z + b.z);
}
__host__ __device__ vec3 operator+(const vec3& a, float s) { return vec3(a.x + s, a.y + s, a.z + s); }
__host__ __device__ vec3 operator+(float s, const vec3& b) { return vec3(s + b.x, s + b.y, s + b.z); }
__host__ __device__ vec3 operator-(const vec3& a, const vec3& b) {
    return vec3(a.x - b.x, a.y - b.y, a.z - b.z);
}
__host__ __device__ vec3 operator-(const vec3& a, float s) { return vec3(a.x - s, a.y - s, a.z - s); }
__host__ __device__ vec3 operator-(float s, const vec3& b) { return vec3(s - b.x, s - b.y, s - b.z); }
__host__ __device__ vec3 operator*(const vec3& a, const vec3& b) {
    return vec3(a.x * b.x, a.y * b.y, a.z * b.z);
}
__host__ __device__ vec3 operator*(const vec3& a, float s) { return vec3(a.x * s, a.y * s, a.z * s); }
__host__ __device__ vec3 operator*(float s, const vec3& b) { return vec3(s * b.x, s * b.y, s * b.z); }
__host__ __device__ vec3 operator/(const vec3& a, const vec3& b) {
    return vec3(a.x / b.x, a.y / b.y, a.z / b.z);
}
__host__ __device__ vec3 operator/(const vec3& a, float s) { return vec3(a.x / s, a.y / s, a.z / s); }
__host__ __device__ vec3 operator/(float s, const vec3& b) { return vec3(s / b.x, s / b.y, s / b.z); }

__host__ __device__ vec4 operator-(const vec4& v) { return vec4(-v.x, -v.y, -v.z, -v.w); }
__host__ __device__ vec4 operator+(const vec4& a, const vec4& b) {
    return vec4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
__host__ __device__ vec4 operator+(const vec4& a, float s) {
    return vec4(a.x + s, a.y + s, a.z + s, a.w + s);
}
__host__ __device__ vec4 operator+(float s, const vec4& b) {
    return vec4(s + b.x, s + b.y, s + b.z, s + b.w);
}
__host__ __device__ vec4 operator-(const vec4& a, const vec4& b) {
    return vec4(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w);
}
__host__ __device__ vec4 operator-(const vec4& a, float s) {
    return vec4(a.x - s, a.y - s, a.z - s, a.w - s);
}
__host__ __device__ vec4 operator-(float s, const vec4& b) {
    return vec4(s - b.x, s - b.y, s - b.z, s - b.w);
}
__host__ __device__ vec4 operator*(const vec4& a, const vec4& b) {
    return vec4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w);
}
__host__ __device__ vec4 operator*(const vec4& a, float s) {
    return vec4(a.x * s, a.y * s, a.z * s, a.w * s);
}
__host__ __device__ vec4 operator*(float s, const vec4& b) {
    return vec4(s * b.x, s * b.y, s * b.z, s * b.w);
}
__host__ __device__ vec4 operator/(const vec4& a, const vec4& b) {
    return vec4(a.x / b.x, a.y / b.y, a.z / b.z, a.w / b.w);
}
__host__ __device__ vec4 operator/(const vec4& a, float s) {
    return vec4(a.x / s, a.y / s, a.z / s, a.w / s);
}
__host__ __device__ vec4 operator/(float s, const vec4& b) {
    return vec4(s / b.x, s / b.y, s / b.z, s / b.w);
}

// type_mat3x3.hpp: three columns; mat3(s) is s on the diagonal.
template <>
struct mat<3, 3, float> {
    vec<3, float> value[3];
    __host__ __device__ mat() {}
    __host__ __device__ explicit mat(float s) {
        value[0] = vec<3, float>(s, 0.0f, 0.0f);
        value[1] = vec<3, float>(0.0f, s, 0.0f);
        value[2] = vec<3, float>(0.0f, 0.0f, s);
    }
    __host__ __device__ mat(float x0, float y0, float z0, float x1, float y1, float z1, float x2,
                            float y2, float z2) {
        value[0] = vec<3, float>(x0, y0, z0);
        value[1] = vec<3, float>(x1, y1, z1);
        value[2] = vec<3, float>(x2, y2, z2);
    }
    __host__ __device__ mat(const vec<3, float>& v0, const vec<3, float>& v1,
                            const vec<3, float>& v2) {
        value[0] = v0;
        value[1] = v1;
        value[2] = v2;
    }
    __host__ __device__ static length_t length() { return 3; }
    __host__ __device__ vec<3, float>& operator[](length_t i) { return value[i]; }
    __host__ __device__ const vec<3, float>& operator[](length_t i) const { return value[i]; }
};

typedef mat<3, 3, float> mat3;
typedef mat<3, 3, float> mat3x3;

// type_mat3x3.inl: m * v sums the columns weighted by v's components; m1 * m2 is m1 times
// each column of m2, in glm's order of additions.
__host__ __device__ vec3 operator*(const mat3& m, const vec3& v) {
    return vec3(m.value[0].x * v.x + m.value[1].x * v.y + m.value[2].x * v.z,
                m.value[0].y * v.x + m.value[1].y * v.y + m.value[2].y * v.z,
                m.value[0].z * v.x + m.value[1].z * v.y + m.value[2].z * v.z);
}
__host__ __device__ vec3 operator*(const vec3& v, const mat3& m) {
    return vec3(m.value[0].x * v.x + m.value[0].y * v.y + m.value[0].z * v.z,
                m.value[1].x * v.x + m.value[1].y * v.y + m.value[1].z * v.z,
                m.value[2].x * v.x + m.value[2].y * v.y + m.value[2].z * v.z);
}
__host__ __device__ mat3 operator*(const mat3& a, const mat3& b) {
    return mat3(a * b.value[0], a * b.value[1], a * b.value[2]);
}
__host__ __device__ mat3 operator*(const mat3& m, float s) {
    return mat3(m.value[0] * s, m.value[1] * s, m.value[2] * s);
}
__host__ __device__ mat3 operator*(float s, const mat3& m) {
    return mat3(s * m.value[0], s * m.value[1], s * m.value[2]);
}
__host__ __device__ mat3 operator+(const mat3& a, const mat3& b) {
    return mat3(a.value[0] + b.value[0], a.value[1] + b.value[1], a.value[2] + b.value[2]);
}
__host__ __device__ mat3 operator-(const mat3& a, const mat3& b) {
    return mat3(a.value[0] - b.value[0], a.value[1] - b.value[1], a.value[2] - b.value[2]);
}

// func_matrix.inl: the transpose swaps rows and columns.
__host__ __device__ mat3 transpose(const mat3& m) {
    return mat3(m.value[0].x, m.value[1].x, m.value[2].x,
                m.value[0].y, m.value[1].y, m.value[2].y,
                m.value[0].z, m.value[1].z, m.value[2].z);
}

// func_geometric.inl: dot multiplies then adds left to right (vec4: (x + y) + (z + w)); length
// is sqrt(dot(v, v)); normalize is v * inversesqrt(dot(v, v)), inversesqrt(x) = 1 / sqrt(x).
__host__ __device__ float dot(const vec2& a, const vec2& b) { return a.x * b.x + a.y * b.y; }
__host__ __device__ float dot(const vec3& a, const vec3& b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
__host__ __device__ float dot(const vec4& a, const vec4& b) {
    return (a.x * b.x + a.y * b.y) + (a.z * b.z + a.w * b.w);
}
__host__ __device__ vec3 cross(const vec3& x, const vec3& y) {
    return vec3(x.y * y.z - y.y * x.z, x.z * y.x - y.z * x.x, x.x * y.y - y.x * x.y);
}
__host__ __device__ float length(const vec2& v) { return sqrtf(dot(v, v)); }
__host__ __device__ float length(const vec3& v) { return sqrtf(dot(v, v)); }
__host__ __device__ float length(const vec4& v) { return sqrtf(dot(v, v)); }
__host__ __device__ float distance(const vec3& p0, const vec3& p1) { return length(p1 - p0); }
__host__ __device__ vec2 normalize(const vec2& v) { return v * (1.0f / sqrtf(dot(v, v))); }
__host__ __device__ vec3 normalize(const vec3& v) { return v * (1.0f / sqrtf(dot(v, v))); }
__host__ __device__ vec4 normalize(const vec4& v) { return v * (1.0f / sqrtf(dot(v, v))); }

// func_common.inl: max(x, y) is (x < y) ? y : x and min(x, y) is (y < x) ? y : x, per
// component (a NaN in x stays).
__host__ __device__ float __glm_max(float x, float y) { return (x < y) ? y : x; }
__host__ __device__ float __glm_min(float x, float y) { return (y < x) ? y : x; }
__host__ __device__ vec3 max(const vec3& v, float s) {
    return vec3(__glm_max(v.x, s), __glm_max(v.y, s), __glm_max(v.z, s));
}
__host__ __device__ vec3 max(const vec3& a, const vec3& b) {
    return vec3(__glm_max(a.x, b.x), __glm_max(a.y, b.y), __glm_max(a.z, b.z));
}
__host__ __device__ vec3 min(const vec3& v, float s) {
    return vec3(__glm_min(v.x, s), __glm_min(v.y, s), __glm_min(v.z, s));
}
__host__ __device__ vec3 min(const vec3& a, const vec3& b) {
    return vec3(__glm_min(a.x, b.x), __glm_min(a.y, b.y), __glm_min(a.z, b.z));
}

// gtc/type_ptr.inl: make_vecN(p) copies N floats from p.
__host__ __device__ vec2 make_vec2(const float* p) { return vec2(p[0], p[1]); }
__host__ __device__ vec3 make_vec3(const float* p) { return vec3(p[0], p[1], p[2]); }
__host__ __device__ vec4 make_vec4(const float* p) { return vec4(p[0], p[1], p[2], p[3]); }

}  // namespace glm
